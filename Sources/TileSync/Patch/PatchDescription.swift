extension TilePatcher {
    /// What a patch file holds, read without a store (`tilesync info` of a patch, an app checking a
    /// download before applying it).
    public struct Description: Sendable, Equatable {
        /// Tiles the patch adds or replaces.
        public let puts: Int
        /// Tiles it deletes (NULL rows).
        public let deletions: Int
        /// Metadata keys it sets or removes.
        public let metadataChanges: Int
        /// The `agg_tiles_hash` of the store it applies to, when it says.
        public let beforeHash: ContentHash?
        /// The `agg_tiles_hash` the store has once patched, when it says.
        public let afterHash: ContentHash?
    }
}
