/// A tile list's tiles at some zooms as runs of consecutive rows in one column (one `TileRange`
/// a column wide), in (z, x) order and, within a column, rows ascending or descending. Walks the
/// sorted keys: each key is read once, and a column's end is found by one search, so memory stays
/// at the list's one cached block whatever the list's length.
struct TileListColumnRuns: Sequence, IteratorProtocol {
    private let list: TileList
    private let rowsDescending: Bool
    /// Positions past the zooms asked for.
    private let end: Int
    /// The first position of the column after the one being walked.
    private var nextColumn: Int
    /// Positions of the walked column not emitted yet: `low..<high`.
    private var low: Int
    private var high: Int

    init(list: TileList, zooms: ClosedRange<Int>, rowsDescending: Bool) {
        self.list = list
        self.rowsDescending = rowsDescending
        nextColumn = list.firstIndex(atOrAfter: TileList.firstKey(ofZoom: zooms.lowerBound))
        end = list.firstIndex(atOrAfter: TileList.firstKey(ofZoom: zooms.upperBound + 1))
        low = nextColumn
        high = nextColumn
    }

    mutating func next() -> TileRange? {
        if low >= high, !enterColumn() { return nil }
        let start = rowsDescending ? high - 1 : low
        guard let startKey = list.key(at: start) else { return nil }
        var last = start, lastKey = startKey
        let step = rowsDescending ? -1 : 1
        while low <= last + step, last + step < high, let key = list.key(at: last + step),
              key == (rowsDescending ? lastKey - 1 : lastKey + 1) {
            last += step
            lastKey = key
        }
        if rowsDescending { high = last } else { low = last + 1 }
        let first = TileList.coordinate(startKey), other = TileList.coordinate(lastKey)
        return TileRange(unchecked: first.z, columns: first.x...first.x, rows: Swift.min(first.y, other.y)...Swift.max(first.y, other.y))
    }

    /// Moves to the next column; false past the last.
    private mutating func enterColumn() -> Bool {
        guard nextColumn < end, let key = list.key(at: nextColumn) else { return false }
        let tile = TileList.coordinate(key)
        let columnLastKey = TileList.key(TileCoordinate(unchecked: tile.z, tile.x, (1 << tile.z) - 1))
        low = nextColumn
        high = Swift.min(end, list.firstIndex(atOrAfter: columnLastKey + 1))
        nextColumn = high
        return low < high
    }
}
