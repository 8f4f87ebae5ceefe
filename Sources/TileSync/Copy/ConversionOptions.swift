extension TileConverter {
    /// How `TileConverter` copies tiles. What is particular to a store (its layout, MBTiles schema,
    /// dedup) travels in its location's `options`.
    public struct Options: Sendable {
        /// Which tiles to copy.
        /// How tiles are rewritten on the way (`TileTransforms`): `compression` (`--compress`),
        /// `rasterEncoding` (`--tile-format`, `--drop-empty`), `layerFilter` (`--layer`, ...);
        /// empty keeps every tile's bytes.
        public var transforms = TileTransformSettings()
        public var filter: TileFilter = .all
        /// A store that keeps a time per tile (a folder) gives each tile the modification time it
        /// was read with (folder sources), as `rsync -a` does; `sync` into a missing folder relies on it.
        public var preservesModificationTimes = false
        /// Replace an existing destination.
        public var overwrite = false
        /// Count invalid tiles and go on instead of stopping at the first.
        public var skipInvalid = false

        /// What the run refuses before its first write (`--max-tiles`, free space).
        public var limits = TileAmountLimits()
        /// Polled between tiles; returning true stops the run, leaving the destination untouched.
        public var isCancelled: @Sendable () -> Bool = { false }

        /// Defaults: every tile, no overwrite, stop at the first invalid tile.
        public init() {}
    }
}
