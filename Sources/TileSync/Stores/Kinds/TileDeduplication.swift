extension TileStoreCapabilities {
    /// How a store keeps repeated blobs, when it keeps them once.
    public enum Deduplication: Sendable, Equatable {
        /// Every tile is stored with its own bytes.
        case none
        /// The store keys blobs by their hash and ignores a repeat by itself (normalized MBTiles):
        /// the writer needs each tile's MD5.
        case storesEachBlobOnce
        /// A repeat is stored as a reference to the first tile with its bytes (hard links): the
        /// writer needs that tile's coordinate (`duplicateOf:`) as well as the MD5.
        case linksRepeats
    }
}
