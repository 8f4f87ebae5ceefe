extension TilePatcher {
    /// What `TilePatcher.makePatch` wrote.
    public struct Summary: Sendable {
        /// The store the patch applies to.
        public let base: TileStoreLocation
        /// The store it turns the base into.
        public let target: TileStoreLocation
        /// The patch file.
        public let patchPath: String
        /// Tiles the patch adds (absent in the base).
        public var added = 0
        /// Tiles it replaces.
        public var replaced = 0
        /// Tiles it deletes (NULL rows).
        public var deleted = 0
        /// Bytes of the tiles it adds and replaces.
        public var bytesPut = 0
        /// Metadata keys it sets or removes.
        public var metadataChanges = 0
        /// The patch file's size in bytes.
        public var patchBytes = 0
        /// The base's `agg_tiles_hash` (`agg_tiles_hash_before_apply`).
        public var beforeHash = ContentHash.ofEmpty
        /// The base's `agg_tiles_hash` once patched (`agg_tiles_hash_after_apply`).
        public var afterHash = ContentHash.ofEmpty
        /// Invalid tiles left out (with `skipInvalid`).
        public var invalidTiles = SkippedItems()
        /// Wall-clock time in seconds.
        public var seconds = 0.0

        /// True when the patch changes nothing.
        public var isEmpty: Bool { added + replaced + deleted + metadataChanges == 0 }

        init(base: TileStoreLocation, target: TileStoreLocation, patchPath: String) {
            self.base = base
            self.target = target
            self.patchPath = patchPath
        }
    }
}
