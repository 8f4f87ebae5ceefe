extension TileConverter {
    /// What a conversion did.
    public struct Summary: Sendable {
        /// The store read.
        public let source: TileStoreLocation
        /// The store written.
        public let destination: TileStoreLocation
        /// Tiles written (a repeated coordinate counts each time).
        public internal(set) var tilesWritten = 0
        /// Bytes of tile data written.
        public internal(set) var bytesWritten = 0
        /// Tiles whose bytes repeat an earlier tile of this run.
        public internal(set) var duplicateTiles = 0
        /// Bytes of those repeats.
        public internal(set) var duplicateBytes = 0
        /// True when the destination stored each distinct blob once (normalized MBTiles, `deduplicate`).
        public internal(set) var destinationDeduplicates = false
        /// Distinct blobs among the tiles written.
        public var distinctBlobs: Int { tilesWritten - duplicateTiles }
        /// Bytes the destination did not store thanks to deduplication.
        public var bytesSaved: Int { destinationDeduplicates ? duplicateBytes : 0 }
        /// Tiles passed over with `skipInvalid`, the first few named.
        public internal(set) var invalidTiles = SkippedItems()
        /// Entries and files that are not tiles.
        public internal(set) var nonTiles = SkippedItems()
        /// The tile format the bytes say (of the first tile), nil for an empty source.
        public internal(set) var sniffedFormat: SniffedTileFormat?
        /// UTFGrids written (MBTiles `grids`, `.grid.json` files).
        public internal(set) var gridsWritten = 0
        /// What the source holds that the destination does not carry (each also a warning).
        public internal(set) var uncarried: [UncarriedContent] = []
        /// Problems worth telling that did not stop the run, each with its fix.
        public internal(set) var warnings: [String] = []
        /// What the source's reader chose by itself (the layout it found for a tree).
        public internal(set) var notes: [String] = []
        /// Wall-clock duration in seconds.
        public internal(set) var seconds = 0.0
        /// What raster re-encoding did, when it was asked for.
        public internal(set) var rasterReencoding: RasterReencoder.Tally?
        /// Vector tiles the layer filter left without a layer, not written (0 without a filter,
        /// or with `keepsEmptyTiles`).
        public internal(set) var tilesWithoutLayers = 0
        /// The metadata written to the destination.
        public internal(set) var metadata = TileMetadata()
    }
}
