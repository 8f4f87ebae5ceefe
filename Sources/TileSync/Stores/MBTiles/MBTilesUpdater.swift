import Foundation

/// Changes an MBTiles file in place inside one SQLite transaction (`BEGIN IMMEDIATE` ...
/// `COMMIT`, with the file's own journal), so an interrupted sync leaves the file as it was.
/// Writes each schema the way it is laid out: flat `tiles`, `tiles_with_hash` with the MD5, or
/// normalized `map`/`images` (orphaned images are dropped at the end). `agg_tiles_hash` is
/// recomputed before the commit (unless the caller gave it: `setCommittedAggregateHash`).
///
/// A file that does not exist yet is built under a temporary name beside it in the schema
/// asked for and renamed into place by `finish()`; `abort()` deletes it.
///
/// Errors: `.notATileStore` (a `tiles` view over unknown tables cannot take tiles), `.io`.
final class MBTilesUpdater: TileUpdater {
    /// The MBTiles file.
    public let location: TileStoreLocation
    private let schemaIfNew: MBTilesSchema
    private var connection: SQLiteConnection?
    private var schema = MBTilesSchema.flat
    private var tilesAreWritable = false
    private var statements: MBTilesTileStatements?
    private var gridStatements: MBTilesGridStatements?
    private var inTransaction = false
    /// The temporary file a new store is built in, until `finish()` renames it.
    private var newFilePath: String?
    /// The `agg_tiles_hash` written by the last commit.
    public private(set) var committedAggregateHash: ContentHash?
    private var knownAggregateHash: ContentHash?

    private var beforeCommit: ((ContentHash) throws -> Void)?

    /// The `agg_tiles_hash` the next commit writes instead of computing it from the tiles.
    public func setCommittedAggregateHash(_ hash: ContentHash) {
        knownAggregateHash = hash
    }

    /// `body` is called with the `agg_tiles_hash` of the next commit, inside its transaction.
    public func callBeforeCommit(_ body: @escaping (ContentHash) throws -> Void) -> Bool {
        beforeCommit = body
        return true
    }

    /// Prepares to change the file (opened at `begin`).
    /// - Parameter schemaIfNew: the table layout when the file does not exist yet.
    public init(location: TileStoreLocation, schemaIfNew: MBTilesSchema = .flat) throws(TileStoreError) {
        self.location = location
        self.schemaIfNew = schemaIfNew
    }

    deinit {
        abort()
    }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        let connection = try open()
        do {
            try connection.execute("BEGIN IMMEDIATE")
            inTransaction = true
            try writeMetadata(metadata, connection)
        } catch {
            abort()
            throw writeError(error, item: nil)
        }
    }

    /// Rewrites only the `metadata` table in one transaction, keys in the order given; the
    /// `agg_tiles_hash` row keeps its value (no tile changes). The file must exist.
    public func replaceMetadata(_ metadata: TileMetadata) throws {
        guard AtomicFile.exists(location.address) else {
            throw TileStoreError(.notFound, store: location.address, message: "no such file")
        }
        let connection = try open()
        do {
            try connection.execute("BEGIN IMMEDIATE")
            inTransaction = true
            try connection.execute("CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT)")
            let aggregate = try connection.rows("SELECT value FROM metadata WHERE name = 'agg_tiles_hash'").first.map { $0[0] }
            try connection.execute("DELETE FROM metadata")
            var rows = metadata.entries.filter { !TileTreeOptions.metadataKeys.contains($0.key) }.map { entry in
                entry.key == "agg_tiles_hash" ? TileMetadata.Entry(key: entry.key, value: aggregate ?? entry.value) : entry
            }
            if let aggregate, !metadata.contains("agg_tiles_hash") { rows.append(TileMetadata.Entry(key: "agg_tiles_hash", value: aggregate)) }
            let insert = try connection.prepare("INSERT INTO metadata (name, value) VALUES (?1, ?2)")
            for row in rows {
                try insert.bind(row.key, at: 1)
                try insert.bind(row.value, at: 2)
                try insert.run()
            }
            try connection.execute("COMMIT")
            inTransaction = false
            self.connection = nil
        } catch {
            abort()
            throw writeError(error, item: "table metadata")
        }
    }

    private func writeMetadata(_ metadata: TileMetadata, _ connection: SQLiteConnection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT);
            DELETE FROM metadata WHERE name != 'agg_tiles_hash';
            """)
        let insert = try connection.prepare("INSERT INTO metadata (name, value) VALUES (?1, ?2)")
        for entry in metadata where !TileTreeOptions.metadataKeys.contains(entry.key) && entry.key != "agg_tiles_hash" {
            try insert.bind(entry.key, at: 1)
            try insert.bind(entry.value, at: 2)
            try insert.run()
        }
    }

    public func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        let statements = try tileStatements()
        do {
            try statements.put(tile, hash: hash)
        } catch {
            throw writeError(error, item: MBTilesReader.describe(tile.coordinate))
        }
    }

    public func remove(_ coordinate: TileCoordinate) throws {
        let statements = try tileStatements()
        do {
            try statements.remove(coordinate)
        } catch {
            throw writeError(error, item: MBTilesReader.describe(coordinate))
        }
    }

    /// Rewrites wrong `tile_hash` (flat-with-hash) or `tile_id` (normalized) values from the
    /// bytes, inside the transaction.
    public func rebuildStoredHashes() throws {
        guard let connection, inTransaction else {
            throw TileStoreError(.unsupported, store: location.address, message: "rebuild before begin")
        }
        guard let sql = MBTilesMaintenance.rebuildHashesSQL(schema) else { return }
        do {
            try connection.registerMD5Function()
            try connection.execute(sql)
        } catch {
            throw writeError(error, item: nil)
        }
    }

    public func finish() throws {
        guard let connection, inTransaction else {
            throw TileStoreError(.unsupported, store: location.address, message: "finish before begin")
        }
        do {
            if schema == .normalized {
                try connection.execute("DELETE FROM images WHERE tile_id NOT IN (SELECT tile_id FROM map WHERE tile_id IS NOT NULL)")
            }
            let aggregate = try knownAggregateHash ?? MBTilesAggregateHash.compute(connection)
            knownAggregateHash = nil
            if let beforeCommit {
                self.beforeCommit = nil
                try beforeCommit(aggregate)
            }
            try connection.execute("DELETE FROM metadata WHERE name = 'agg_tiles_hash'")
            let insert = try connection.prepare("INSERT INTO metadata (name, value) VALUES ('agg_tiles_hash', ?1)")
            try insert.bind(aggregate.hex, at: 1)
            try insert.run()
            statements = nil
            gridStatements = nil
            try connection.execute("COMMIT")
            inTransaction = false
            committedAggregateHash = aggregate
            self.connection = nil
            if let newFilePath {
                try AtomicFile.sync(path: newFilePath)
                try AtomicFile.rename(newFilePath, to: location.address)
                self.newFilePath = nil
            }
        } catch {
            abort()
            throw MBTilesCatalog.writeError(error, store: location.address)
        }
    }

    /// Rolls back. When SQLite already rolled back on its own (after `SQLITE_FULL` it does, and
    /// may leave a hot journal), the journal is replayed now, so read-only readers see the file
    /// as it was. A new file is deleted.
    public func abort() {
        statements = nil
        gridStatements = nil
        if inTransaction { try? connection?.execute("ROLLBACK") }
        inTransaction = false
        connection = nil
        if let newFilePath {
            AtomicFile.remove(newFilePath)
            AtomicFile.remove(newFilePath + "-journal")
            self.newFilePath = nil
        } else {
            MBTilesMaintenance.recover(path: location.address)
        }
    }

    /// Opens the file, or creates a new one beside it in `schemaIfNew`.
    private func open() throws(TileStoreError) -> SQLiteConnection {
        let path: String
        if AtomicFile.exists(location.address) {
            path = location.address
        } else {
            path = AtomicFile.temporaryPath(beside: location.address)
            newFilePath = path
        }
        do {
            let connection = try SQLiteConnection(path: path, mode: newFilePath == nil ? .readWrite : .readWriteCreate)
            if newFilePath != nil {
                try connection.execute("PRAGMA page_size = \(MBTilesWriter.pageSize);")
                try connection.execute(MBTilesWriter.schemaSQL(schemaIfNew))
            }
            let catalog = try MBTilesCatalog(connection: connection, store: location.address)
            schema = catalog.schema
            let type = try? connection.rows("SELECT type FROM sqlite_master WHERE name = 'tiles'").first?.first ?? nil
            tilesAreWritable = schema != .flat || type == "table"
            self.connection = connection
            return connection
        } catch let error as SQLiteError {
            abort()
            throw MBTilesCatalog.openError(error, store: location.address)
        } catch {
            abort()
            throw TileStoreError(wrapping: error, store: location.address)
        }
    }

    /// UTFGrids go into `grids` and `grid_data` tables as mb-util writes them, made when missing;
    /// a file whose `grids` is a view (the normalized UTFGrid schema) keeps its grids as they are.
    public var acceptsGrids: Bool {
        if let connection { return Self.gridsAreWritable(connection) }
        guard AtomicFile.exists(location.address) else { return true }
        guard let connection = try? SQLiteConnection(path: location.address, mode: .readOnly) else { return false }
        return Self.gridsAreWritable(connection)
    }

    private static func gridsAreWritable(_ connection: SQLiteConnection) -> Bool {
        let type = (try? connection.rows("SELECT type FROM sqlite_master WHERE name = 'grids'").first?.first) ?? nil
        return type == nil || type == "table"
    }

    public func put(grid: UTFGrid) throws {
        let item = "grid \(grid.coordinate) (TMS row \(grid.coordinate.tmsY))"
        do {
            try gridWriter().put(grid)
        } catch let error as TileStoreError {
            throw error
        } catch {
            throw writeError(error, item: item)
        }
    }

    public func removeGrid(at coordinate: TileCoordinate) throws {
        do {
            try gridWriter().remove(coordinate)
        } catch let error as TileStoreError {
            throw error
        } catch {
            throw writeError(error, item: "grid \(coordinate) (TMS row \(coordinate.tmsY))")
        }
    }

    private func gridWriter() throws -> MBTilesGridStatements {
        if let gridStatements { return gridStatements }
        guard let connection, inTransaction else {
            throw TileStoreError(.unsupported, store: location.address, message: "change before begin")
        }
        let made = try MBTilesGridStatements(connection: connection)
        gridStatements = made
        return made
    }

    private func tileStatements() throws(TileStoreError) -> MBTilesTileStatements {
        if let statements { return statements }
        guard let connection, inTransaction else {
            throw TileStoreError(.unsupported, store: location.address, message: "change before begin")
        }
        guard tilesAreWritable else {
            throw TileStoreError(.notATileStore, store: location.address, item: "view tiles",
                                 message: "tiles is a view over tables TileSync does not know, so it cannot be updated",
                                 hint: "convert the file to a new MBTiles instead")
        }
        do {
            let made = try MBTilesTileStatements(connection: connection, schema: schema)
            statements = made
            return made
        } catch {
            throw writeError(error, item: nil)
        }
    }

    private func writeError(_ error: any Error, item: String?) -> TileStoreError {
        guard let error = error as? SQLiteError else { return TileStoreError(wrapping: error, store: location.address, item: item) }
        return MBTilesCatalog.writeError(error, store: location.address, item: item)
    }
}
