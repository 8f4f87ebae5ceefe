/// Tile IDs, the numbering of PMTiles v3 that every store and shard uses for order: a tile's
/// position along the Hilbert curves of zoom 0, 1, 2, ... laid end to end, so `0/0/0` is 0, the
/// four tiles of zoom 1 are 1 to 4, and zoom 31 ends just below 2^64 / 3. Coordinates are XYZ.
public enum TileID {
    /// The highest zoom a 64-bit tile ID can hold.
    public static let maxZoom = 31
    /// One past the last tile ID of zoom 31: (4^32 - 1) / 3.
    public static let end: UInt64 = UInt64.max / 3

    /// The first tile ID of zoom `z` (0...32): (4^z - 1) / 3.
    public static func firstID(ofZoom z: Int) -> UInt64 {
        z >= 32 ? end : ((1 << (2 * UInt64(z))) - 1) / 3
    }

    /// The tile ID of `z/x/y` (XYZ).
    /// - Throws: `TileCoordinateError` when `z` is outside 0...31 or `x`/`y` outside 0..<2^z.
    public static func id(z: Int, x: Int, y: Int) throws(TileCoordinateError) -> UInt64 {
        guard (0...maxZoom).contains(z) else { throw .zoomOutOfRange(z) }
        let size = 1 << z
        guard (0..<size).contains(x) else { throw .columnOutOfRange(z: z, x: x) }
        guard (0..<size).contains(y) else { throw .rowOutOfRange(z: z, y: y) }
        return unchecked(z: z, x: UInt64(x), y: UInt64(y))
    }

    /// The tile ID of a coordinate TileSync holds (zoom 30 at most).
    public static func id(of coordinate: TileCoordinate) -> UInt64 {
        unchecked(z: coordinate.z, x: UInt64(coordinate.x), y: UInt64(coordinate.y))
    }

    /// The `z/x/y` (XYZ) of a tile ID.
    /// - Throws: `TileCoordinateError.zoomOutOfRange(32)` for an ID past zoom 31.
    public static func zxy(of id: UInt64) throws(TileCoordinateError) -> (z: Int, x: Int, y: Int) {
        guard id < end else { throw .zoomOutOfRange(32) }
        var z = 0
        while firstID(ofZoom: z + 1) <= id { z += 1 }
        let (x, y) = coordinate(z: z, position: id - firstID(ofZoom: z))
        return (z, x, y)
    }

    /// The column and row (XYZ) of the tile at `position` along zoom `z`'s curve.
    static func coordinate(z: Int, position: UInt64) -> (x: Int, y: Int) {
        var position = position
        var x: UInt64 = 0
        var y: UInt64 = 0
        var side: UInt64 = 1
        let size: UInt64 = 1 << UInt64(z)
        while side < size {
            let rx = 1 & (position >> 1)
            let ry = 1 & (position ^ rx)
            rotate(side, &x, &y, rx, ry)
            x += side * rx
            y += side * ry
            position >>= 2
            side <<= 1
        }
        return (Int(x), Int(y))
    }

    /// The zoom of a tile ID below `end`.
    static func zoom(of id: UInt64) -> Int {
        var z = 0
        while z < maxZoom && firstID(ofZoom: z + 1) <= id { z += 1 }
        return z
    }

    /// The tile ID of `z/x/y` without range checks: for coordinates already known valid.
    static func unchecked(z: Int, x: UInt64, y: UInt64) -> UInt64 {
        var x = x
        var y = y
        var position: UInt64 = 0
        let size: UInt64 = 1 << UInt64(z)
        var side = size >> 1
        while side > 0 {
            let rx: UInt64 = x & side != 0 ? 1 : 0
            let ry: UInt64 = y & side != 0 ? 1 : 0
            position += side * side * ((3 * rx) ^ ry)
            rotate(size, &x, &y, rx, ry)
            side >>= 1
        }
        return firstID(ofZoom: z) + position
    }

    private static func rotate(_ size: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = size &- 1 &- x
            y = size &- 1 &- y
        }
        swap(&x, &y)
    }
}
