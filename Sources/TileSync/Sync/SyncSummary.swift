extension TileSynchronizer {
    /// What a sync or diff found and did.
    public struct Summary: Sendable {
        /// The store synced from.
        public let source: TileStoreLocation
        /// The store synced to.
        public let destination: TileStoreLocation
        /// Tiles the destination lacked.
        public internal(set) var added = 0
        /// Tiles whose bytes differed.
        public internal(set) var replaced = 0
        /// Destination tiles the source lacks that were (or, in a diff or dry run, would be) removed.
        public internal(set) var deleted = 0
        /// Destination tiles the source lacks, kept because `delete` was off.
        public internal(set) var kept = 0
        /// Tiles both held with the same bytes.
        public internal(set) var unchanged = 0
        /// Bytes of tiles added.
        public internal(set) var bytesToAdd = 0
        /// Bytes of the new versions of replaced tiles.
        public internal(set) var bytesToReplace = 0
        /// Bytes of tiles added and replaced.
        public var bytesToWrite: Int { bytesToAdd + bytesToReplace }
        /// Bytes of tiles deleted (or kept, see `kept`).
        public internal(set) var bytesToDelete = 0
        /// True when the destination metadata differs from the source's.
        public internal(set) var metadataChanged = false
        /// True when nothing was changed on disk (a diff, a dry run, or nothing to do).
        public internal(set) var wroteNothing = true
        /// URLs written to the purge list (`Options.purgeList`); nil when none was written.
        public internal(set) var purgedURLs: Int?
        /// The patch written (`Options.patchPath`): the destination's `agg_tiles_hash` before and
        /// after, and the patch's size in bytes; nil when none was written.
        public internal(set) var patch: (before: ContentHash, after: ContentHash, bytes: Int)?
        /// True when the destination did not exist and was created.
        public internal(set) var created = false
        /// True when the sync state showed that neither store changed since the last sync.
        public internal(set) var quickCheckSkippedComparison = false
        /// Problems worth telling that did not stop the run (a damaged sync state that was ignored).
        public internal(set) var warnings: [String] = []
        /// What the stores' readers chose by themselves (the layout they found for a tree).
        public internal(set) var notes: [String] = []
        /// What the source holds that the destination does not carry (each also a warning).
        public internal(set) var uncarried: [UncarriedContent] = []
        /// Vector tiles the layer filter left without a layer in this run, not written. Tiles the
        /// last run's rewrite memo knew are not filtered again, so a rerun counts only new ones.
        public internal(set) var tilesWithoutLayers = 0
        /// Invalid source tiles skipped with `skipInvalid`.
        public internal(set) var invalidTiles = SkippedItems()
        /// What raster re-encoding did, when it was asked for: the distinct source tile contents
        /// this run re-encoded (a content repeated or known from the memo of the last sync is
        /// encoded once or not at all) and their bytes, and the source tiles dropped as empty.
        public internal(set) var rasterReencoding: RasterReencoder.Tally?
        /// Wall-clock duration in seconds.
        public internal(set) var seconds = 0.0

        /// UTFGrids the destination lacked (a grid is part of its coordinate's content).
        public internal(set) var gridsAdded = 0
        /// UTFGrids whose JSON differed.
        public internal(set) var gridsReplaced = 0
        /// Destination UTFGrids the source lacks that were (or would be) removed.
        public internal(set) var gridsDeleted = 0
        /// Destination UTFGrids the source lacks, kept because `delete` was off.
        public internal(set) var gridsKept = 0
        /// UTFGrids both held alike.
        public internal(set) var gridsUnchanged = 0

        /// True when there is nothing to write.
        public var isInSync: Bool {
            added == 0 && replaced == 0 && deleted == 0 && !metadataChanged && gridsAdded == 0 && gridsReplaced == 0 && gridsDeleted == 0
        }

        /// True when a grid count is not zero (so output mentions grids).
        public var involvesGrids: Bool { gridsAdded + gridsReplaced + gridsDeleted + gridsKept + gridsUnchanged > 0 }
    }
}
