extension MergedStoreKind {
    /// What a merge of several sources does where more than one holds a coordinate with different
    /// bytes (martin's `--on-duplicate`). Sources count in the order given; equal bytes are never a
    /// conflict.
    public enum DuplicatePolicy: String, Sendable, CaseIterable {
        /// A later source wins the coordinate.
        case override
        /// The first source that holds it keeps it.
        case ignore
        /// The merge stops at the first such coordinate, naming it and both sources.
        case abort
    }
}
