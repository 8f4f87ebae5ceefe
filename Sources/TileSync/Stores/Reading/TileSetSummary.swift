/// Counts and extents of the tiles in a store, per zoom level, without reading tile bytes
/// where the store can avoid it.
public struct TileSetSummary: Sendable, Equatable {
    /// One zoom level's numbers. Columns and rows are XYZ.
    public struct Zoom: Sendable, Equatable {
        /// The zoom level.
        public let z: Int
        /// Tiles at this zoom.
        public internal(set) var tileCount: Int
        /// Sum of tile sizes in bytes.
        public internal(set) var byteCount: Int
        /// XYZ columns spanned.
        public internal(set) var columns: ClosedRange<Int>
        /// XYZ rows spanned.
        public internal(set) var rows: ClosedRange<Int>

        /// The extent of the tiles at this zoom.
        public var range: TileRange { TileRange(unchecked: z, columns: columns, rows: rows) }
    }

    /// Zoom levels that hold tiles, ascending.
    public internal(set) var zooms: [Zoom] = []
    /// The count stopped at a bound (`scanLimit` rows of an MBTiles `tiles` view of unknown
    /// shape): the store holds at least these tiles.
    public internal(set) var isPartial = false

    /// No tiles.
    public init() {}

    /// Tiles at every zoom.
    public var tileCount: Int { zooms.reduce(0) { $0 + $1.tileCount } }
    /// Bytes of tiles at every zoom.
    public var byteCount: Int { zooms.reduce(0) { $0 + $1.byteCount } }
    /// The lowest zoom with tiles.
    public var minZoom: Int? { zooms.first?.z }
    /// The highest zoom with tiles.
    public var maxZoom: Int? { zooms.last?.z }

    /// The longitude/latitude extent of all the tiles (the union over every zoom).
    public var bounds: BoundingBox? {
        zooms.map(\.range.bounds).reduce(nil) { union, box in union.map { $0.union(box) } ?? box }
    }

    /// Adds one tile of `size` bytes.
    mutating func add(_ coordinate: TileCoordinate, size: Int) {
        if let index = zooms.firstIndex(where: { $0.z == coordinate.z }) {
            zooms[index].tileCount += 1
            zooms[index].byteCount += size
            zooms[index].columns = min(zooms[index].columns.lowerBound, coordinate.x)...max(zooms[index].columns.upperBound, coordinate.x)
            zooms[index].rows = min(zooms[index].rows.lowerBound, coordinate.y)...max(zooms[index].rows.upperBound, coordinate.y)
        } else {
            zooms.append(Zoom(z: coordinate.z, tileCount: 1, byteCount: size,
                              columns: coordinate.x...coordinate.x, rows: coordinate.y...coordinate.y))
            zooms.sort { $0.z < $1.z }
        }
    }

    /// Adds every tile of `range`, each of `bytesEach` bytes (counts saturate at `Int.max`).
    mutating func add(_ range: TileRange, bytesEach: Int) {
        let count = range.count
        let (bytes, overflow) = count.multipliedReportingOverflow(by: bytesEach)
        let addedBytes = overflow ? Int.max : bytes
        guard let index = zooms.firstIndex(where: { $0.z == range.z }) else {
            add(Zoom(z: range.z, tileCount: count, byteCount: addedBytes, columns: range.columns, rows: range.rows))
            return
        }
        var zoom = zooms[index]
        zoom.tileCount = Self.saturatingSum(zoom.tileCount, count)
        zoom.byteCount = Self.saturatingSum(zoom.byteCount, addedBytes)
        zoom.columns = min(zoom.columns.lowerBound, range.columns.lowerBound)...max(zoom.columns.upperBound, range.columns.upperBound)
        zoom.rows = min(zoom.rows.lowerBound, range.rows.lowerBound)...max(zoom.rows.upperBound, range.rows.upperBound)
        zooms[index] = zoom
    }

    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    mutating func add(_ zoom: Zoom) {
        zooms.removeAll { $0.z == zoom.z }
        zooms.append(zoom)
        zooms.sort { $0.z < $1.z }
    }
}
