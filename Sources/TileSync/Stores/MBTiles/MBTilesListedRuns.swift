/// Reads only the listed tiles of a filter with a tile list: a query ending in `condition` is
/// run once for each column run of the list (bound as zoom, column and TMS rows), so that each
/// run is a seek in the tile index and no row between listed tiles is read. Runs come in
/// (zoom, column, TMS row) order, the index's order. Other parts of the filter are left to the
/// cursor's `contains`.
struct MBTilesListedRuns {
    /// The query's condition, parameters ?1 to ?4.
    static let condition = " WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row BETWEEN ?3 AND ?4"
    private var runs: TileListColumnRuns

    /// Nil when the filter has no list or no listed tile at its zooms.
    init?(_ filter: TileFilter) {
        guard let list = filter.tiles else { return nil }
        runs = list.columnRuns(zooms: filter.zooms, rowsDescending: true)
    }

    /// Resets `statement` and binds the next run; false after the last.
    mutating func bindNext(_ statement: SQLiteStatement) throws(SQLiteError) -> Bool {
        guard let run = runs.next() else { return false }
        let last = (1 << run.z) - 1
        statement.reset()
        try statement.bind(run.z, at: 1)
        try statement.bind(run.columns.lowerBound, at: 2)
        try statement.bind(last - run.rows.upperBound, at: 3)
        try statement.bind(last - run.rows.lowerBound, at: 4)
        return true
    }
}
