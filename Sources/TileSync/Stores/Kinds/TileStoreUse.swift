extension TileStoreLocation {
    /// What a command does with one of its stores: which of the kinds' command-line options it
    /// offers for that store.
    public enum Use: Sendable, Hashable {
        /// Read (a source, a store verified or shown).
        case read
        /// Created anew (a conversion's destination).
        case create
        /// Brought up to date: changed in place, or created when missing (a sync's destination).
        case update
        /// An existing store changed in place (a patched store, metadata edited).
        case change
    }
}
