extension TileConverter {
    /// How `TileConverter` copies tiles. What is particular to a store (its layout, MBTiles schema,
    /// dedup) travels in its location's `options`.
    public struct Options: Sendable {
        /// Which tiles to copy.
        public var filter: TileFilter = .all
        /// A store that keeps a time per tile (a folder) gives each tile the modification time it
        /// was read with (folder sources), as `rsync -a` does; `sync` into a missing folder relies on it.
        public var preservesModificationTimes = false
        /// Replace an existing destination.
        public var overwrite = false
        /// Count invalid tiles and go on instead of stopping at the first.
        public var skipInvalid = false
        /// Re-encode vector tiles into this compression (`--compress`); nil keeps the bytes as
        /// they are. See `TileRecompressor`.
        public var compression: TileCompression?
        /// Re-encode raster tiles, or drop empty ones (`--tile-format`, `--drop-empty`); nil keeps
        /// them. See `RasterReencoder`.
        public var rasterEncoding: RasterReencoder.Encoding?
        /// Keep only some layers and attributes of vector tiles (`--layer`, `--exclude-layer`,
        /// `--include-field`, `--exclude-field`); nil keeps them all.
        public var layerFilter: VectorTile.LayerFilter?

        /// What the tile transforms are asked to do.
        var transformSettings: TileTransformSettings {
            TileTransformSettings(compression: compression, rasterEncoding: rasterEncoding, layerFilter: layerFilter)
        }
        /// What the run refuses before its first write (`--max-tiles`, free space).
        public var limits = TileAmountLimits()
        /// Polled between tiles; returning true stops the run, leaving the destination untouched.
        public var isCancelled: @Sendable () -> Bool = { false }

        /// Defaults: every tile, no overwrite, stop at the first invalid tile.
        public init() {}
    }
}
