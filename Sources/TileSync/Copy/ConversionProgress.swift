/// How far a conversion has come, reported after each tile.
public struct ConversionProgress: Sendable {
    /// Tiles written so far.
    public let tilesDone: Int
    /// Bytes of tile data written so far.
    public let bytesDone: Int
    /// The number of tiles to copy, when the source could tell it cheaply.
    public let tilesTotal: Int?
}
