/// What one stage did to one tile.
enum TileTransformOutcome: Sendable {
    /// New bytes, for the next stage.
    case rewritten(Tile)
    /// The tile as it came, with what the tally counts of it.
    case unchanged(TileTransformNote?)
    /// Not written.
    case dropped(TileTransformNote)
}

/// What the run's tally counts of a tile a stage left or dropped.
enum TileTransformNote: Sendable, Equatable {
    /// A raster tile passed by the recompression (`--compress` leaves images as they are).
    case rasterPassed
    /// A raster tile the re-encoding handled and kept in its own bytes (`smaller`: they were
    /// smaller than the re-encoded ones).
    case rasterKept(smaller: Bool)
    /// A fully transparent raster tile (`--drop-empty`).
    case emptyRaster
    /// A vector tile with no layer left after the layer filter.
    case noLayersLeft
}
