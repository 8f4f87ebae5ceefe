extension TileStoreCapabilities {
    /// How a store is changed by a sync.
    public enum UpdateStyle: Sendable, Equatable {
        /// Tiles are put and removed where they are (a transaction, a journal).
        case inPlace
        /// The whole store is written anew and swapped in (a tar archive).
        case rewrite
    }
}
