import Foundation

/// The changes a rewriting updater (tar, PMTiles) holds until its commit: tiles put, with their
/// bytes, and tiles removed, in a private temporary SQLite table keyed by coordinate, so memory
/// stays bounded however many change. A later change of a coordinate replaces an earlier one.
final class PendingTileChanges {
    private let store: String
    private let connection: SQLiteConnection
    private let change: SQLiteStatement
    private var isChanged: SQLiteStatement?

    /// - Throws: `TileStoreError` `.io` when the temporary table cannot be made.
    init(store: String) throws(TileStoreError) {
        self.store = store
        do {
            connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                CREATE TABLE change (z INTEGER, x INTEGER, y INTEGER, data BLOB, PRIMARY KEY (z, x, y)) WITHOUT ROWID;
                BEGIN;
                """)
            change = try connection.prepare("INSERT OR REPLACE INTO change VALUES (?1, ?2, ?3, ?4)")
        } catch {
            throw TileStoreError(.io, store: store, message: "cannot create a temporary table for the changes: \(error)")
        }
    }

    /// Records a put (`data`) or a removal (nil).
    /// - Throws: `TileStoreError` `.io` naming the tile.
    func record(_ coordinate: TileCoordinate, data: Data?) throws(TileStoreError) {
        do {
            try change.bind(coordinate.z, at: 1)
            try change.bind(coordinate.x, at: 2)
            try change.bind(coordinate.y, at: 3)
            if let data { try change.bind(data, at: 4) } else { try change.bind(nil as String?, at: 4) }
            try change.run()
        } catch {
            throw TileStoreError(.io, store: store, item: "tile \(coordinate)", message: "temporary table failed: \(error)")
        }
    }

    /// True when a coordinate was put or removed.
    /// - Throws: `SQLiteError`.
    func contains(_ coordinate: TileCoordinate) throws -> Bool {
        let statement: SQLiteStatement
        if let isChanged {
            statement = isChanged
        } else {
            statement = try connection.prepare("SELECT 1 FROM change WHERE z = ?1 AND x = ?2 AND y = ?3")
            isChanged = statement
        }
        try statement.bind(coordinate.z, at: 1)
        try statement.bind(coordinate.x, at: 2)
        try statement.bind(coordinate.y, at: 3)
        defer { statement.reset() }
        return try statement.step()
    }

    /// Calls `body` with every tile put, in zoom, column, row order.
    /// - Throws: `SQLiteError`, or what `body` throws.
    func forEachPut(_ body: (Tile) throws -> Void) throws {
        let added = try connection.prepare("SELECT z, x, y, data FROM change WHERE data IS NOT NULL ORDER BY z, x, y")
        while try added.step() {
            try body(Tile(coordinate: TileCoordinate(unchecked: added.int(at: 0), added.int(at: 1), added.int(at: 2)),
                          data: added.blob(at: 3) ?? Data()))
        }
    }
}
