/// martin's `agg_tiles_hash` over the tiles of an open MBTiles database, read with one ordered
/// query (the index's order) and fed to `AggregateTileHash`, which holds the formula.
enum MBTilesAggregateHash {
    /// - Parameter source: a table, view or sub-select with the four MBTiles tile columns.
    /// - Throws: `SQLiteError` when the query fails, `DigestError` when MD5 fails.
    static func compute(_ connection: SQLiteConnection, source: String = "tiles") throws -> ContentHash {
        let statement = try connection.prepare(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM \(source) ORDER BY zoom_level, tile_column, tile_row")
        let aggregate = AggregateTileHash(inBackground: true)
        while try statement.step() {
            statement.withText(at: 0) { zoomLevel in
                statement.withText(at: 1) { tileColumn in
                    statement.withText(at: 2) { tileRow in
                        statement.withBlob(at: 3) { data in
                            aggregate.addRow(zoomLevel: zoomLevel, tileColumn: tileColumn, tileRow: tileRow, data: data)
                        }
                    }
                }
            }
        }
        return try aggregate.finalize()
    }
}
