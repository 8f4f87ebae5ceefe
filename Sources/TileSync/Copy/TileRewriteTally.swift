/// What `TileRewriter` did to the tiles of a run.
struct TileRewriteTally {
    /// Raster tiles left as they are by `--compress` alone.
    var rasterPassed = 0
    var raster = RasterReencoder.Tally()
    /// Vector tiles the layer filter left without a layer (not written).
    var withoutLayers = 0

    /// Counts one tile's outcome; returns the tile to write, nil for a dropped one.
    /// - Parameter counting: raster re-encoding was asked for (so unchanged tiles are counted as kept).
    mutating func record(_ outcome: TileRewriter.Outcome, for tile: Tile, counting: Bool) -> Tile? {
        switch outcome {
        case .rewritten(let written):
            if counting {
                raster.reencoded += 1
                raster.bytesBefore += tile.data.count
                raster.bytesAfter += written.data.count
            }
            return written
        case .unchanged(let rasterPassed, let smaller):
            if rasterPassed { self.rasterPassed += 1 }
            if smaller { raster.keptSmaller += 1 }
            if counting, !rasterPassed, smaller {
                raster.bytesBefore += tile.data.count
                raster.bytesAfter += tile.data.count
            }
            return tile
        case .dropped(let note):
            if note == .noLayersLeft { withoutLayers += 1 } else { raster.droppedEmpty += 1 }
            return nil
        }
    }

    mutating func add(_ other: TileRewriteTally) {
        rasterPassed += other.rasterPassed
        withoutLayers += other.withoutLayers
        raster.add(other.raster)
    }
}
