import Foundation

/// The UTFGrids of two stores compared by content, for `sync`, `diff` and `verify A B`: each
/// side's grids (coordinate and MD5 of the canonical JSON; the source's JSON too, to be written)
/// go into a private temporary SQLite table, so memory stays bounded however many there are.
/// A grid counts as part of its coordinate's content: equal tiles with different grids differ.
final class UTFGridComparison {
    /// Source grids the destination lacks.
    private(set) var added = 0
    /// Source grids whose destination grid differs.
    private(set) var replaced = 0
    /// Destination grids the source lacks (removed by a sync with `delete`).
    private(set) var onlyInDestination = 0
    /// Grids equal in both.
    private(set) var unchanged = 0
    /// Source grids that could not be read and were skipped (`skipInvalid`).
    private(set) var invalid = SkippedItems()

    private let connection: SQLiteConnection

    /// Reads both sides; either cursor may be nil (the store keeps no grids).
    /// - Parameter skipInvalid: pass over source grids that cannot be read (recorded in
    ///   `invalid`); otherwise the first one ends the comparison with its error.
    /// - Throws: `TileStoreError` from either store, `.io` when the temporary table fails.
    init(source: (any UTFGridCursor)?, destination: (any UTFGridCursor)?, store: String, skipInvalid: Bool,
         isCancelled: () -> Bool = { false }) throws {
        do {
            connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                CREATE TABLE source (z INTEGER, x INTEGER, y INTEGER, hash TEXT, json BLOB, PRIMARY KEY (z, x, y)) WITHOUT ROWID;
                CREATE TABLE destination (z INTEGER, x INTEGER, y INTEGER, hash TEXT, PRIMARY KEY (z, x, y)) WITHOUT ROWID;
                BEGIN;
                """)
        } catch {
            throw TileStoreError(.io, store: store, message: "cannot create a temporary table for UTFGrids: \(error)")
        }
        if let source {
            let insert = try prepare("INSERT OR REPLACE INTO source VALUES (?1, ?2, ?3, ?4, ?5)", store: store)
            while let grid = try TileConverter.nextGrid(source, skipInvalid: skipInvalid, invalid: &invalid) {
                if isCancelled() { throw TileStoreError(.interrupted, store: store, message: "interrupted") }
                try record(grid, into: insert, withJSON: true, store: store)
            }
        }
        if let destination {
            let insert = try prepare("INSERT OR REPLACE INTO destination VALUES (?1, ?2, ?3, ?4)", store: store)
            var ignored = SkippedItems()
            while let grid = try TileConverter.nextGrid(destination, skipInvalid: true, invalid: &ignored) {
                if isCancelled() { throw TileStoreError(.interrupted, store: store, message: "interrupted") }
                try record(grid, into: insert, withJSON: false, store: store)
            }
        }
        do {
            func count(_ sql: String) throws -> Int { try connection.rows(sql).first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0 }
            added = try count("SELECT count(*) FROM source s WHERE NOT EXISTS (SELECT 1 FROM destination d WHERE d.z = s.z AND d.x = s.x AND d.y = s.y)")
            replaced = try count("SELECT count(*) FROM source s JOIN destination d USING (z, x, y) WHERE d.hash != s.hash")
            unchanged = try count("SELECT count(*) FROM source s JOIN destination d USING (z, x, y) WHERE d.hash = s.hash")
            onlyInDestination = try count("SELECT count(*) FROM destination d WHERE NOT EXISTS (SELECT 1 FROM source s WHERE d.z = s.z AND d.x = s.x AND d.y = s.y)")
        } catch {
            throw TileStoreError(.io, store: store, message: "cannot compare UTFGrids in the temporary table: \(error)")
        }
    }

    /// True when both sides hold the same grids.
    var isEqual: Bool { added == 0 && replaced == 0 && onlyInDestination == 0 }

    /// Calls `body` with each source grid the destination lacks or holds otherwise, in zoom,
    /// column, row order.
    func forEachChanged(_ body: (UTFGrid) throws -> Void) throws {
        let statement = try connection.prepare("""
            SELECT s.z, s.x, s.y, s.json FROM source s LEFT JOIN destination d USING (z, x, y)
            WHERE d.hash IS NULL OR d.hash != s.hash ORDER BY s.z, s.x, s.y
            """)
        while try statement.step() {
            let coordinate = TileCoordinate(unchecked: statement.int(at: 0), statement.int(at: 1), statement.int(at: 2))
            try body(UTFGrid(coordinate: coordinate, canonicalJSON: statement.blob(at: 3) ?? Data()))
        }
    }

    /// Calls `body` with each coordinate whose grid only the destination has.
    func forEachOnlyInDestination(_ body: (TileCoordinate) throws -> Void) throws {
        let statement = try connection.prepare("""
            SELECT d.z, d.x, d.y FROM destination d
            WHERE NOT EXISTS (SELECT 1 FROM source s WHERE d.z = s.z AND d.x = s.x AND d.y = s.y) ORDER BY d.z, d.x, d.y
            """)
        while try statement.step() {
            try body(TileCoordinate(unchecked: statement.int(at: 0), statement.int(at: 1), statement.int(at: 2)))
        }
    }

    private func prepare(_ sql: String, store: String) throws -> SQLiteStatement {
        do {
            return try connection.prepare(sql)
        } catch {
            throw TileStoreError(.io, store: store, message: "cannot use the temporary table for UTFGrids: \(error)")
        }
    }

    private func record(_ grid: UTFGrid, into insert: SQLiteStatement, withJSON: Bool, store: String) throws {
        do {
            try insert.bind(grid.coordinate.z, at: 1)
            try insert.bind(grid.coordinate.x, at: 2)
            try insert.bind(grid.coordinate.y, at: 3)
            try insert.bind(ContentHash(of: grid.json).hex, at: 4)
            if withJSON { try insert.bind(grid.json, at: 5) }
            try insert.run()
        } catch {
            throw TileStoreError(.io, store: store, item: "grid \(grid.coordinate)", message: "temporary table failed: \(error)")
        }
    }
}
