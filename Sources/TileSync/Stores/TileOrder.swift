/// The order a reader streams tiles in.
public enum TileOrder: Sendable, Equatable {
    /// Zoom, column, XYZ row, all ascending.
    case zoomColumnRow
    /// Zoom, column ascending, then TMS row ascending (XYZ row descending): an MBTiles index's
    /// native order.
    case zoomColumnTMSRow
    /// No particular order (a tar archive, an unindexed table).
    case unordered

    /// True when `a` comes strictly before `b` in this order (false for `.unordered`).
    public func precedes(_ a: TileCoordinate, _ b: TileCoordinate) -> Bool {
        switch self {
        case .zoomColumnRow: (a.z, a.x, a.y) < (b.z, b.x, b.y)
        case .zoomColumnTMSRow: (a.z, a.x, b.y) < (b.z, b.x, a.y)
        case .unordered: false
        }
    }
}
