extension TileStoreCapabilities {
    /// What a store's cheap listing (`TileReader.listing`) knows of each tile besides its
    /// coordinate and size.
    public struct ListingFields: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The MD5 of each tile (stored, or computed while the listing reads every tile).
        public static let hashes = TileStoreCapabilities.ListingFields(rawValue: 1)
        /// A modification time per tile that the store's updater sets on `put` (a file per tile).
        public static let modificationTimes = TileStoreCapabilities.ListingFields(rawValue: 2)
    }
}
