import Foundation

/// Computes martin's `agg_tiles_hash` (`AggregateTileHash`) for any reader, as if its tiles
/// were in MBTiles: in one pass for ordered readers, asked for (zoom, column, TMS row) order
/// (a second, sorted pass when they could not give it), else through a private temporary table
/// that puts the tiles in that order. Invalid tiles are left
/// out. Readers that can do better (an MBTiles with an ordered query) override
/// `TileReader.aggregateHash()`.
public enum AggregateHashCalculator {
    /// - Throws: `TileStoreError` from the reader, or `.io` when the temporary table fails.
    public static func compute(_ reader: any TileReader) throws -> ContentHash {
        let store = reader.location.address
        do {
            guard reader.order == .zoomColumnRow || reader.order == .zoomColumnTMSRow else { return try computeSorted(try reader.tiles(matching: .all)) }
            let cursor = try reader.tiles(matching: .all, preferring: .zoomColumnTMSRow)
            let aggregate = AggregateTileHash()
            while let tile = try nextValid(cursor) { aggregate.add(tile.coordinate, data: tile.data) }
            if aggregate.isInOrder { return try aggregate.finalize() }
            return try computeSorted(try reader.tiles(matching: .all))
        } catch let error as TileStoreError {
            throw error
        } catch {
            throw TileStoreError(.io, store: store, message: "cannot compute agg_tiles_hash: \(error)")
        }
    }

    private static func computeSorted(_ cursor: any TileCursor) throws -> ContentHash {
        let order = TileOrder.zoomColumnTMSRow
        let connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE tile (key INTEGER PRIMARY KEY, z INTEGER, x INTEGER, y INTEGER, data BLOB);
            BEGIN;
            """)
        let insert = try connection.prepare("INSERT OR REPLACE INTO tile VALUES (?1, ?2, ?3, ?4, ?5)")
        while let tile = try nextValid(cursor) {
            try insert.bind(order.sortKey(tile.coordinate), at: 1)
            try insert.bind(tile.coordinate.z, at: 2)
            try insert.bind(tile.coordinate.x, at: 3)
            try insert.bind(tile.coordinate.y, at: 4)
            try insert.run(binding: tile.data, at: 5)
        }
        try connection.execute("COMMIT")
        let select = try connection.prepare("SELECT z, x, y, data FROM tile ORDER BY key")
        let aggregate = AggregateTileHash()
        while try select.step() {
            let coordinate = TileCoordinate(unchecked: select.int(at: 0), select.int(at: 1), select.int(at: 2))
            aggregate.add(coordinate, data: select.blob(at: 3) ?? Data())
        }
        return try aggregate.finalize()
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
