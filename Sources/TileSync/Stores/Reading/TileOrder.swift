/// The order a reader streams tiles in, or a writer wants them in.
public enum TileOrder: Sendable, Equatable {
    /// Zoom, column, XYZ row, all ascending.
    case zoomColumnRow
    /// Zoom, column ascending, then TMS row ascending (XYZ row descending): an MBTiles index's
    /// native order.
    case zoomColumnTMSRow
    /// PMTiles tile-ID order: zoom ascending, then along the zoom's Hilbert curve.
    case tileID
    /// No particular order (a tar archive, an unindexed table).
    case unordered

    /// A key that sorts coordinates in this order: the position of the tile among all tiles of
    /// zooms 0 to 30 (below 1.6e18, so it fits an SQLite INTEGER); `.tileID` uses the PMTiles tile ID. `.unordered` uses the
    /// zoom, column, row key.
    public func sortKey(_ coordinate: TileCoordinate) -> Int {
        if self == .tileID { return Int(TileID.id(of: coordinate)) }
        let z = coordinate.z
        let row = self == .zoomColumnTMSRow ? coordinate.tmsY : coordinate.y
        return Self.zoomOffset(z) + (coordinate.x << z | row)
    }

    /// True when `a` comes strictly before `b` in this order (false for `.unordered`).
    public func precedes(_ a: TileCoordinate, _ b: TileCoordinate) -> Bool {
        self != .unordered && sortKey(a) < sortKey(b)
    }

    /// Tiles at zooms below `z`: (4^z - 1) / 3.
    private static func zoomOffset(_ z: Int) -> Int { ((1 << (2 * z)) - 1) / 3 }
}
