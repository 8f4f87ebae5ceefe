/// Streams the tiles of a GeoPackage tile table query.
final class GeoPackageCursor: TileCursor {
    private var rows: GeoPackageRows
    let skipped = SkippedItems()

    init(statement: SQLiteStatement, reader: GeoPackageReader, filter: TileFilter) {
        rows = GeoPackageRows(statement: statement, reader: reader, filter: filter)
    }

    func next() throws -> Tile? {
        guard let coordinate = try rows.next() else { return nil }
        return Tile(coordinate: coordinate, data: try rows.reader.validated(rows.statement.blob(at: 3), coordinate: coordinate))
    }
}
