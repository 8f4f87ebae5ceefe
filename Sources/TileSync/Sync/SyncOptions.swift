extension TileSynchronizer {
    /// How `TileSynchronizer` compares and updates two stores. What is particular to a store (its
    /// layout, the schema of an MBTiles it creates) travels in its location's `options`.
    public struct Options: Sendable {
        /// Which tiles both sides are limited to.
        /// How the source's tiles are rewritten on the way (`TileTransforms`): `compression`,
        /// `rasterEncoding`, `layerFilter`. The source's tiles are then compared as rewritten, by
        /// MD5 (as with `checksum`), and a memo beside the destination's sync state keeps what
        /// each source tile became, so a rerun rewrites only tiles that changed.
        public var transforms = TileTransformSettings()
        public var filter: TileFilter = .all
        /// Remove destination tiles the source does not have (`--delete`).
        public var delete = false
        /// Compute the plan, change nothing (`--dry-run`).
        public var dryRun = false
        /// Compare content hashes of every tile, ignoring modification times and the sync state
        /// (`--checksum`).
        public var checksum = false

        /// Count invalid source tiles and go on instead of stopping.
        public var skipInvalid = false
        /// Refuse, before any change, a sync that would delete more than this many tiles
        /// (`--max-delete`, rclone's guard against an emptied or wrong source); nil: no limit.
        public var maxDelete: Int?
        /// Where to write the public URLs of what the sync changed (nothing is written when
        /// nothing changed, or on a dry run).
        public var purgeList: TileSynchronizer.PurgeList?
        /// Where to write what the sync changes in the destination as a patch in martin's format
        /// (a new file; none is written when nothing changes, or on a dry run). The destination
        /// must exist: the patch turns its copy before the sync into its copy after.
        public var patchPath: String?
        /// What the run refuses before its first write (`--max-tiles`, free space).
        public var limits = TileAmountLimits()
        /// Polled between tiles; true stops the run before the commit, leaving the destination as it was.
        public var isCancelled: @Sendable () -> Bool = { false }
        /// Called as a source that asks for each tile (a tile server) is listed, which is its
        /// download: tiles and bytes so far, and the places asked of the total. On any thread, one
        /// call at a time; nil for none.
        public var progress: (@Sendable (TileConverter.Progress) -> Void)?
        /// False when the run must leave no sync state in the destination (a patch is made against it).
        var recordsState = true

        /// Defaults: every tile, keep destination-only tiles, quick mode, apply the plan.
        public init() {}
    }
}
