extension TilePatcher {
    /// What `TilePatcher.apply` did to a store.
    public struct ApplySummary: Sendable {
        /// The store patched.
        public let store: TileStoreLocation
        /// The patch file.
        public let patchPath: String
        /// Tiles added, replaced and deleted.
        public var added = 0
        public var replaced = 0
        public var deleted = 0
        /// Deletions of tiles the store did not have (nothing to do there).
        public var absentDeletions = 0
        /// Bytes of the tiles written.
        public var bytesPut = 0
        /// Metadata keys set or removed.
        public var metadataChanges = 0
        /// The store's `agg_tiles_hash` before and after.
        public var beforeHash = ContentHash.ofEmpty
        public var afterHash = ContentHash.ofEmpty
        /// True when the store already had the patch's result: nothing was written.
        public var alreadyApplied = false
        /// What was not checked or did not match (under `force`), one line each.
        public var warnings: [String] = []
        /// Wall-clock time in seconds.
        public var seconds = 0.0

        init(store: TileStoreLocation, patchPath: String) {
            self.store = store
            self.patchPath = patchPath
        }
    }
}
