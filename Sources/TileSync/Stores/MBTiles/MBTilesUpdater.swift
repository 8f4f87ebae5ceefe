import Foundation

/// Changes an existing MBTiles file in place inside one SQLite transaction (`BEGIN IMMEDIATE` ...
/// `COMMIT`, with the file's own journal), so an interrupted sync leaves the file as it was.
/// Writes each schema the way it is laid out: flat `tiles`, `tiles_with_hash` with the MD5, or
/// normalized `map`/`images` (orphaned images are dropped at the end). `agg_tiles_hash` is
/// recomputed before the commit.
///
/// Errors: `.notATileStore` (a `tiles` view over unknown tables cannot be written), `.io`.
public final class MBTilesUpdater: TileUpdater {
    /// The MBTiles file.
    public let location: TileStoreLocation
    private let connection: SQLiteConnection
    private let schema: MBTilesSchema
    private var statements: MBTilesTileStatements?
    private var inTransaction = false

    /// Opens the file for writing.
    /// - Throws: `TileStoreError` when it cannot be opened or its tiles are not in a table.
    public init(location: TileStoreLocation) throws(TileStoreError) {
        self.location = location
        do {
            connection = try SQLiteConnection(path: location.path, mode: .readWrite)
        } catch {
            throw MBTilesCatalog.openError(error, store: location.path)
        }
        let catalog = try MBTilesCatalog(connection: connection, store: location.path)
        schema = catalog.schema
        if schema == .flat {
            let type = (try? connection.rows("SELECT type FROM sqlite_master WHERE name = 'tiles'"))?.first?.first ?? nil
            guard type == "table" else {
                throw TileStoreError(.notATileStore, store: location.path, item: "view tiles",
                                     message: "tiles is a view over tables TileSync does not know, so it cannot be updated",
                                     hint: "convert the file to a new MBTiles instead")
            }
        }
    }

    deinit {
        if inTransaction { try? connection.execute("ROLLBACK") }
    }

    public func begin(metadata: TileMetadata) throws {
        do {
            try connection.execute("BEGIN IMMEDIATE")
            inTransaction = true
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT);
                DELETE FROM metadata WHERE name != 'agg_tiles_hash';
                """)
            let insert = try connection.prepare("INSERT INTO metadata (name, value) VALUES (?1, ?2)")
            for entry in metadata where entry.key != "scheme" && entry.key != "agg_tiles_hash" {
                try insert.bind(entry.key, at: 1)
                try insert.bind(entry.value, at: 2)
                try insert.run()
            }
            statements = try MBTilesTileStatements(connection: connection, schema: schema)
        } catch {
            abort()
            throw writeError(error, item: nil)
        }
    }

    public func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        guard let statements else { throw TileStoreError(.unsupported, store: location.path, message: "put before begin") }
        do {
            try statements.put(tile, hash: hash)
        } catch {
            throw writeError(error, item: MBTilesReader.describe(tile.coordinate))
        }
    }

    public func remove(_ coordinate: TileCoordinate) throws {
        guard let statements else { throw TileStoreError(.unsupported, store: location.path, message: "remove before begin") }
        do {
            try statements.remove(coordinate)
        } catch {
            throw writeError(error, item: MBTilesReader.describe(coordinate))
        }
    }

    public func finish() throws {
        do {
            if schema == .normalized {
                try connection.execute("DELETE FROM images WHERE tile_id NOT IN (SELECT tile_id FROM map WHERE tile_id IS NOT NULL)")
            }
            let aggregate = try MBTilesWriter.aggregateHash(connection)
            try connection.execute("DELETE FROM metadata WHERE name = 'agg_tiles_hash'")
            let insert = try connection.prepare("INSERT INTO metadata (name, value) VALUES ('agg_tiles_hash', ?1)")
            try insert.bind(aggregate.hex, at: 1)
            try insert.run()
            statements = nil
            try connection.execute("COMMIT")
            inTransaction = false
        } catch {
            abort()
            throw writeError(error, item: nil)
        }
    }

    /// Rolls back. When SQLite already rolled back on its own (after `SQLITE_FULL` it does, and
    /// may leave a hot journal), the journal is replayed now, so read-only readers see the file
    /// as it was.
    public func abort() {
        statements = nil
        if inTransaction { try? connection.execute("ROLLBACK") }
        inTransaction = false
        MBTilesMaintenance.recover(path: location.path)
    }

    private func writeError(_ error: SQLiteError, item: String?) -> TileStoreError {
        TileStoreError(.io, store: location.path, item: item, message: error.message,
                       hint: error.code == .full ? TileStoreError.diskFullHint : nil)
    }
}
