/// A run of consecutive tile IDs as the aligned squares of tiles it covers, in ID order: on the
/// Hilbert curve, the 4^k IDs from a multiple of 4^k are one square of 2^k x 2^k tiles, so a run
/// of any length is at most about 6 squares per zoom level it crosses. Counting, summing and
/// bounding a run this way costs its logarithm, not its length (a PMTiles run may address
/// billions of tiles in a few bytes).
enum TileIDSquares {
    /// Calls `body` with each square of `ids` (clamped to `TileID.end`), ascending, up to zoom
    /// `maxZoom`; the part of the run past that zoom is not visited.
    static func forEach(in ids: Range<UInt64>, maxZoom: Int = TileCoordinate.maxZoom, _ body: (TileRange) throws -> Void) rethrows {
        var id = ids.lowerBound
        let end = min(ids.upperBound, TileID.end)
        while id < end {
            let z = TileID.zoom(of: id)
            guard z <= maxZoom else { return }
            let first = TileID.firstID(ofZoom: z)
            let zoomEnd = min(end, TileID.firstID(ofZoom: z + 1))
            var position = id - first
            let stop = zoomEnd - first
            while position < stop {
                var k = 0
                while k < z, position % (UInt64(1) << (2 * UInt64(k + 1))) == 0, position + (UInt64(1) << (2 * UInt64(k + 1))) <= stop {
                    k += 1
                }
                let corner = TileID.coordinate(z: z, position: position)
                let x = (corner.x >> k) << k
                let y = (corner.y >> k) << k
                try body(TileRange(unchecked: z, columns: x...(x + (1 << k) - 1), rows: y...(y + (1 << k) - 1)))
                position += UInt64(1) << (2 * UInt64(k))
            }
            id = zoomEnd
        }
    }

    /// How many tiles of `ids` lie at zooms 0...`maxZoom`, by arithmetic.
    static func count(in ids: Range<UInt64>, maxZoom: Int = TileCoordinate.maxZoom) -> UInt64 {
        let end = min(ids.upperBound, TileID.end, TileID.firstID(ofZoom: maxZoom + 1))
        return end > ids.lowerBound ? end - ids.lowerBound : 0
    }
}
