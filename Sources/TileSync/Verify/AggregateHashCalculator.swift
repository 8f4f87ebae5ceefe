/// Computes martin's `agg_tiles_hash` for any store, as if its tiles were in MBTiles: with an
/// ordered SQL query for MBTiles, in one pass for stores already in (zoom, column, TMS row)
/// order, else through a private temporary table that puts the tiles in that order.
public enum AggregateHashCalculator {
    /// - Throws: `TileStoreError` from the reader (invalid tiles are left out, not thrown), or `.io`.
    public static func compute(_ reader: any TileReader) throws -> ContentHash {
        if let mbtiles = reader as? MBTilesReader { return try mbtiles.aggregateHash() }
        let cursor = try reader.tiles(matching: .all)
        if reader.order == .zoomColumnTMSRow {
            let aggregate = AggregateTileHash()
            while let tile = try nextValid(cursor) { aggregate.add(tile.coordinate, data: tile.data) }
            return aggregate.finalize()
        }
        do {
            let connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB,
                                    PRIMARY KEY (zoom_level, tile_column, tile_row));
                BEGIN;
                """)
            let insert = try connection.prepare("INSERT OR REPLACE INTO tiles VALUES (?1, ?2, ?3, ?4)")
            while let tile = try nextValid(cursor) {
                try insert.bind(tile.coordinate.z, at: 1)
                try insert.bind(tile.coordinate.x, at: 2)
                try insert.bind(tile.coordinate.tmsY, at: 3)
                try insert.bind(tile.data, at: 4)
                try insert.run()
            }
            try connection.execute("COMMIT")
            return try MBTilesWriter.aggregateHash(connection)
        } catch let error as SQLiteError {
            throw TileStoreError(.io, store: reader.location.path, message: "cannot order the tiles in a temporary table: \(error)")
        }
    }

    private static func nextValid(_ cursor: any TileCursor) throws -> Tile? {
        while true {
            do {
                return try cursor.next()
            } catch let error as TileStoreError where error.kind == .invalidTile {
                continue
            }
        }
    }
}
