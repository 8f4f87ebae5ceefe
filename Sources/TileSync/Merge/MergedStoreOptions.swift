extension MergedStoreKind {
    /// A merge reads no options of its own: each source carries its own in its location.
    public struct Options: Sendable {}
}
