import Foundation

/// Computes martin's `agg_tiles_hash` (`AggregateTileHash`) for any reader, as if its tiles
/// were in MBTiles: in one pass for ordered readers, asked for (zoom, column, TMS row) order
/// (a second, sorted pass when they could not give it), else through a private temporary table
/// that puts the tiles in that order. Invalid tiles are left
/// out. Readers that can do better (an MBTiles with an ordered query) override
/// `TileReader.aggregateHash()`.
enum AggregateHashCalculator {
    /// - Throws: `TileStoreError` from the reader, or `.io` when the temporary table fails.
    static func compute(_ reader: any TileReader) throws -> ContentHash {
        var skipped = 0
        return try fold(reader, skipped: &skipped, start: { AggregateTileHash() },
                        add: { aggregate, tile in aggregate.add(tile.coordinate, data: tile.data) }).finalize()
    }

    /// Feeds every valid tile of `reader` to `add` in (zoom, column, TMS row) order, the order
    /// of the aggregate hash. When a reader that promised an order breaks it, the pass starts
    /// over (sorted on disk) with a fresh state from `start`, so `add` must touch nothing else.
    /// - Parameter skipped: set to the number of invalid tiles left out.
    /// - Throws: `TileStoreError` from the reader or from `add`, `.io` when the temporary table fails.
    static func fold<State>(_ reader: any TileReader, skipped: inout Int, start: () throws -> State,
                            add: (inout State, Tile) throws -> Void) throws -> State {
        let store = reader.location.address
        do {
            guard reader.order == .zoomColumnRow || reader.order == .zoomColumnTMSRow else {
                return try foldSorted(try reader.tiles(matching: .all), skipped: &skipped, start: start, add: add)
            }
            skipped = 0
            let cursor = try reader.tiles(matching: .all, preferring: .zoomColumnTMSRow)
            var state = try start()
            var last: (z: Int, x: Int, row: Int)?
            var inOrder = true
            while let tile = try nextValid(cursor, skipped: &skipped) {
                let key = (tile.coordinate.z, tile.coordinate.x, tile.coordinate.tmsY)
                if let last, !(last < key) {
                    inOrder = false
                    break
                }
                last = key
                try add(&state, tile)
            }
            if inOrder { return state }
            return try foldSorted(try reader.tiles(matching: .all), skipped: &skipped, start: start, add: add)
        } catch let error as TileStoreError {
            throw error
        } catch {
            throw TileStoreError(.io, store: store, message: "cannot compute agg_tiles_hash: \(error)")
        }
    }

    private static func foldSorted<State>(_ cursor: any TileCursor, skipped: inout Int, start: () throws -> State,
                                          add: (inout State, Tile) throws -> Void) throws -> State {
        skipped = 0
        let order = TileOrder.zoomColumnTMSRow
        let connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE tile (key INTEGER PRIMARY KEY, z INTEGER, x INTEGER, y INTEGER, data BLOB);
            BEGIN;
            """)
        let insert = try connection.prepare("INSERT OR REPLACE INTO tile VALUES (?1, ?2, ?3, ?4, ?5)")
        while let tile = try nextValid(cursor, skipped: &skipped) {
            try insert.bind(order.sortKey(tile.coordinate), at: 1)
            try insert.bind(tile.coordinate.z, at: 2)
            try insert.bind(tile.coordinate.x, at: 3)
            try insert.bind(tile.coordinate.y, at: 4)
            try insert.run(binding: tile.data, at: 5)
        }
        try connection.execute("COMMIT")
        let select = try connection.prepare("SELECT z, x, y, data FROM tile ORDER BY key")
        var state = try start()
        while try select.step() {
            let coordinate = TileCoordinate(unchecked: select.int(at: 0), select.int(at: 1), select.int(at: 2))
            try add(&state, Tile(coordinate: coordinate, data: select.blob(at: 3) ?? Data()))
        }
        return state
    }

    private static func nextValid(_ cursor: any TileCursor, skipped: inout Int) throws -> Tile? {
        while true {
            do {
                return try cursor.next()
            } catch let error as TileStoreError where error.kind == .invalidTile {
                skipped += 1
            }
        }
    }
}
