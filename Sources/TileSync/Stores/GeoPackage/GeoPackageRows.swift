/// Steps a query over a tile table whose first three columns are zoom_level, tile_column and
/// tile_row, to its end once, giving each row's XYZ coordinate (rows outside the filter skipped).
struct GeoPackageRows {
    let statement: SQLiteStatement
    let reader: GeoPackageReader
    let filter: TileFilter
    private var isDone = false

    init(statement: SQLiteStatement, reader: GeoPackageReader, filter: TileFilter) {
        self.statement = statement
        self.reader = reader
        self.filter = filter
    }

    /// The next row's coordinate, nil at the end.
    /// - Throws: `.invalidTile` naming a row whose coordinates are not integers or lie outside
    ///   its matrix; the reader's error when SQLite cannot step (the rows end then).
    mutating func next() throws(TileStoreError) -> TileCoordinate? {
        while !isDone {
            do {
                guard try statement.step() else {
                    isDone = true
                    return nil
                }
            } catch {
                isDone = true
                throw reader.readError(error, item: GeoPackageAddress.describe(reader.contents.table))
            }
            guard (0..<3).allSatisfy({ statement.isInteger(at: Int32($0)) }) else {
                throw TileStoreError(.invalidTile, store: reader.location.address,
                                     item: "\(GeoPackageAddress.describe(reader.contents.table)) row (zoom_level \(statement.text(at: 0) ?? "NULL"), tile_column \(statement.text(at: 1) ?? "NULL"), tile_row \(statement.text(at: 2) ?? "NULL"))",
                                     message: "the coordinates are not integers")
            }
            let coordinate = try reader.grid.coordinate(zoomLevel: statement.int(at: 0), column: statement.int(at: 1), row: statement.int(at: 2),
                                                        store: reader.location.address)
            if filter.contains(coordinate) { return coordinate }
        }
        return nil
    }
}
