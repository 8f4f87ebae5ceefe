/// Streams the rows of an MBTiles tile query, converting TMS rows to XYZ and validating each.
final class MBTilesCursor: TileCursor {
    private var rows: MBTilesRows
    private var statement: SQLiteStatement { rows.statement }
    private let reader: MBTilesReader
    private let filter: TileFilter
    let skipped = SkippedItems()

    init(rows: MBTilesRows, reader: MBTilesReader, filter: TileFilter) {
        self.rows = rows
        self.reader = reader
        self.filter = filter
    }

    func next() throws -> Tile? {
        while try rows.step(reader: reader, item: nil) {
            let coordinate = try decodeCoordinate()
            guard filter.contains(coordinate) else { continue }
            return Tile(coordinate: coordinate, data: try reader.validatedData(statement.blob(at: 3), coordinate: coordinate))
        }
        return nil
    }

    private func decodeCoordinate() throws(TileStoreError) -> TileCoordinate {
        try Self.coordinate(of: statement, store: reader.location.address)
    }

    /// The XYZ coordinate of a row whose first three columns are zoom_level, tile_column and
    /// tile_row (TMS).
    /// - Throws: `.invalidTile` naming the row when a value is not an integer or out of range.
    static func coordinate(of statement: SQLiteStatement, store: String) throws(TileStoreError) -> TileCoordinate {
        for column in Int32(0)..<3 where !statement.isInteger(at: column) {
            let names = ["zoom_level", "tile_column", "tile_row"]
            let value = statement.text(at: column).map { "'\($0)'" } ?? "NULL"
            throw TileStoreError(.invalidTile, store: store,
                                 item: "row (zoom_level \(statement.text(at: 0) ?? "NULL"), tile_column \(statement.text(at: 1) ?? "NULL"), tile_row \(statement.text(at: 2) ?? "NULL"))",
                                 message: "\(names[Int(column)]) is \(value), not an integer")
        }
        let z = statement.int(at: 0), x = statement.int(at: 1), row = statement.int(at: 2)
        do {
            return try TileCoordinate(z: z, x: x, tmsY: row)
        } catch {
            throw TileStoreError(.invalidTile, store: store,
                                 item: "tile zoom_level \(z), tile_column \(x), tile_row \(row)",
                                 message: error.description)
        }
    }
}
