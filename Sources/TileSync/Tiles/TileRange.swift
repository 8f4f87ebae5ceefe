/// A rectangle of tiles at one zoom level, in XYZ columns and rows (both bounds inclusive).
public struct TileRange: Hashable, Sendable, Sequence, CustomStringConvertible {
    /// The zoom level.
    public let z: Int
    /// XYZ columns, inclusive.
    public let columns: ClosedRange<Int>
    /// XYZ rows (north to south), inclusive.
    public let rows: ClosedRange<Int>

    /// Creates a range.
    /// - Throws: `TileCoordinateError` when a bound is outside the zoom level's grid.
    public init(z: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) throws(TileCoordinateError) {
        _ = try TileCoordinate(z: z, x: columns.lowerBound, y: rows.lowerBound)
        _ = try TileCoordinate(z: z, x: columns.upperBound, y: rows.upperBound)
        self.init(unchecked: z, columns: columns, rows: rows)
    }

    /// Every tile of zoom `z`.
    public static func world(z: Int) throws(TileCoordinateError) -> TileRange {
        guard (0...TileCoordinate.maxZoom).contains(z) else { throw .zoomOutOfRange(z) }
        let last = (1 << z) - 1
        return TileRange(unchecked: z, columns: 0...last, rows: 0...last)
    }

    init(unchecked z: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        self.z = z
        self.columns = columns
        self.rows = rows
    }

    /// Number of tiles in the range.
    public var count: Int { columns.count * rows.count }

    /// True when the tile lies in the range.
    public func contains(_ coordinate: TileCoordinate) -> Bool {
        coordinate.z == z && columns.contains(coordinate.x) && rows.contains(coordinate.y)
    }

    /// The tiles in both ranges, nil when they share none (or lie at different zooms).
    public func intersection(_ other: TileRange) -> TileRange? {
        guard other.z == z, columns.overlaps(other.columns), rows.overlaps(other.rows) else { return nil }
        return TileRange(unchecked: z, columns: columns.clamped(to: other.columns), rows: rows.clamped(to: other.rows))
    }

    /// TMS rows (MBTiles `tile_row`) covered by this range.
    public var tmsRows: ClosedRange<Int> {
        let last = (1 << z) - 1
        return (last - rows.upperBound)...(last - rows.lowerBound)
    }

    /// The longitude/latitude extent of the range's outer edges.
    public var bounds: BoundingBox {
        let northWest = WebMercator.bounds(of: TileCoordinate(unchecked: z, columns.lowerBound, rows.lowerBound))
        let southEast = WebMercator.bounds(of: TileCoordinate(unchecked: z, columns.upperBound, rows.upperBound))
        return BoundingBox(uncheckedWest: northWest.west, south: southEast.south,
                           east: southEast.east, north: northWest.north)
    }

    /// Tiles in column-major order (x, then y), matching the stores' stable order.
    public func makeIterator() -> AnyIterator<TileCoordinate> {
        var x = columns.lowerBound
        var y = rows.lowerBound
        let z = z
        let columns = columns
        let rows = rows
        return AnyIterator {
            guard x <= columns.upperBound else { return nil }
            let tile = TileCoordinate(unchecked: z, x, y)
            if y == rows.upperBound {
                y = rows.lowerBound
                x += 1
            } else {
                y += 1
            }
            return tile
        }
    }

    /// `z/xmin-xmax/ymin-ymax`.
    public var description: String {
        "\(z)/\(columns.lowerBound)-\(columns.upperBound)/\(rows.lowerBound)-\(rows.upperBound)"
    }
}
