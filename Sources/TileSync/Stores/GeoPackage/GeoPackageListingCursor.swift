/// Streams (coordinate, size) of a GeoPackage tile table query whose fourth column is
/// `length(tile_data)` and fifth `typeof(tile_data)`; no tile bytes are read.
final class GeoPackageListingCursor: TileIndexCursor {
    private var rows: GeoPackageRows
    let skipped = SkippedItems()

    init(statement: SQLiteStatement, reader: GeoPackageReader, filter: TileFilter) {
        rows = GeoPackageRows(statement: statement, reader: reader, filter: filter)
    }

    func next() throws -> TileIndexEntry? {
        guard let coordinate = try rows.next() else { return nil }
        let size = rows.statement.isNull(at: 3) ? 0 : rows.statement.int(at: 3)
        guard size > 0 else {
            throw TileStoreError(.invalidTile, store: rows.reader.location.address,
                                 item: "tile \(coordinate) in \(GeoPackageAddress.describe(rows.reader.contents.table))",
                                 message: rows.statement.isNull(at: 3) ? "tile_data is NULL" : "tile_data is empty (0 bytes)")
        }
        return TileIndexEntry(coordinate: coordinate, size: size, hash: nil)
    }
}
