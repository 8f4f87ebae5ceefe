extension TileConverter {
    /// How far a conversion has come, reported after each tile.
    public struct Progress: Sendable {
        /// Tiles written so far.
        public let tilesDone: Int
        /// Bytes of tile data written so far.
        public let bytesDone: Int
        /// The number of tiles to copy, when the source could tell it cheaply (for a tile server,
        /// the tiles it is asked for, some of which it may not have).
        public let tilesTotal: Int?
        /// How many of `tilesTotal` are settled, places without a tile included, for a source whose
        /// total counts such places (a tile server); nil when that is `tilesDone`.
        public var placesDone: Int? = nil
    }
}
