import Foundation

/// Writes a new MBTiles 1.3 file in one of three schemas:
/// - `flat`: `tiles(zoom_level, tile_column, tile_row, tile_data)` with the unique `tile_index`;
/// - `flat-with-hash`: martin's `tiles_with_hash(..., tile_hash)` plus a `tiles` view;
/// - `normalized`: `map(..., tile_id)` and `images(tile_id, tile_data)` with `tile_id` the MD5,
///   one `images` row per distinct blob, plus a `tiles` view.
/// Always `metadata(name, value)` with a unique `name` and `application_id` "MPBX"; an
/// `agg_tiles_hash` computed as martin does unless `writesAggregateHash` is false.
///
/// The file is built under a temporary name beside the destination with journaling off (nobody
/// else can see it), its page writes done by a second thread (`SQLiteStagedWriteVFS`), flushed,
/// and renamed over the destination in `finish()`; `abort()` deletes it. XYZ rows are flipped to TMS `tile_row` here. A repeated coordinate replaces the earlier
/// tile. The `scheme` metadata key is dropped: MBTiles rows are always TMS.
///
/// Errors: `.destinationExists` (without `overwrite`), `.io` (disk full, permissions).
final class MBTilesWriter: TileWriter {
    /// The MBTiles file to create.
    public let location: TileStoreLocation
    /// The table layout written.
    public let schema: MBTilesSchema
    /// Whether `agg_tiles_hash` is computed and written (`--skip-agg-tiles-hash` turns it off).
    public let writesAggregateHash: Bool
    private let temporaryPath: String
    private var connection: SQLiteConnection?
    private var statements: MBTilesTileStatements?
    private var gridStatements: MBTilesGridStatements?
    private var aggregate: BackgroundAggregateHash?
    /// Page cache of a normalized file being written, in KiB: holds the B-tree of `images`
    /// (keyed by hash, so filled in random order) for about a million blobs. Memory stays the
    /// same at any size past a few thousand tiles, since every tile passes through the cache.
    static let normalizedCacheKiB = 16_384
    /// Page size of files we write, in bytes: a vector tile of a few KB fits one page with room
    /// to spare instead of spilling into overflow pages (SQLite's default is 4,096).
    static let pageSize = 16_384
    private var isFinished = false

    static func schemaSQL(_ schema: MBTilesSchema) -> String {
        let metadata = """
            PRAGMA application_id = 0x4d504258;
            CREATE TABLE metadata (name TEXT NOT NULL, value TEXT);
            CREATE UNIQUE INDEX name ON metadata (name);
            """
        switch schema {
        case .flat:
            return metadata + """
                CREATE TABLE tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, \
                tile_row INTEGER NOT NULL, tile_data BLOB);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                """
        case .flatWithHash:
            return metadata + """
                CREATE TABLE tiles_with_hash (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, \
                tile_row INTEGER NOT NULL, tile_data BLOB, tile_hash TEXT, \
                PRIMARY KEY (zoom_level, tile_column, tile_row));
                CREATE VIEW tiles AS SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles_with_hash;
                """
        case .normalized:
            return metadata + """
                CREATE TABLE map (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, \
                tile_row INTEGER NOT NULL, tile_id TEXT, PRIMARY KEY (zoom_level, tile_column, tile_row));
                CREATE TABLE images (tile_id TEXT NOT NULL PRIMARY KEY, tile_data BLOB);
                CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, \
                map.tile_row AS tile_row, images.tile_data AS tile_data \
                FROM map JOIN images ON images.tile_id = map.tile_id;
                """
        }
    }

    /// Prepares to write `location`.
    /// - Parameters:
    ///   - schema: the table layout (default flat).
    ///   - writesAggregateHash: compute and write `agg_tiles_hash` (default true).
    ///   - overwrite: replace an existing file at `finish()` (`--force`).
    /// - Throws: `TileStoreError` `.destinationExists` when the file exists and `overwrite` is false.
    public convenience init(location: TileStoreLocation, schema: MBTilesSchema = .flat, writesAggregateHash: Bool = true,
                            overwrite: Bool) throws(TileStoreError) {
        try AtomicFile.refuseExisting(location.address, overwrite: overwrite)
        self.init(location: location, schema: schema, writesAggregateHash: writesAggregateHash)
    }

    /// A writer that replaces whatever is at `location` when it finishes (for callers that
    /// checked the destination themselves).
    init(location: TileStoreLocation, schema: MBTilesSchema, writesAggregateHash: Bool = true) {
        self.location = location
        self.schema = schema
        self.writesAggregateHash = writesAggregateHash
        temporaryPath = AtomicFile.temporaryPath(beside: location.address)
    }

    deinit {
        if !isFinished { abort() }
    }

    /// Normalized and flat-with-hash files store each tile's MD5.
    public var wantsHashes: Bool { schema != .flat }
    /// A normalized file keys its images by MD5 and stores each blob once.
    public var deduplication: TileStoreCapabilities.Deduplication { schema == .normalized ? .storesEachBlobOnce : .none }
    /// The index order, so rows append and `agg_tiles_hash` streams.
    public var preferredOrder: TileOrder { .zoomColumnTMSRow }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        do {
            let connection = try SQLiteConnection(path: temporaryPath, mode: .readWriteCreate, vfs: SQLiteStagedWriteVFS.name)
            self.connection = connection
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA page_size = \(Self.pageSize);
                """)
            if schema == .normalized { try connection.execute("PRAGMA cache_size = -\(Self.normalizedCacheKiB)") }
            try connection.execute(Self.schemaSQL(schema))
            try connection.execute("BEGIN")
            if writesAggregateHash { aggregate = BackgroundAggregateHash() }
            let metadataInsert = try connection.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?1, ?2)")
            for entry in metadata where !TileTreeOptions.metadataKeys.contains(entry.key) && entry.key != "agg_tiles_hash" {
                try metadataInsert.bind(entry.key, at: 1)
                try metadataInsert.bind(entry.value, at: 2)
                try metadataInsert.run()
            }
            statements = try MBTilesTileStatements(connection: connection, schema: schema)
        } catch {
            abort()
            throw writeError(error, item: nil)
        }
    }

    public func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        guard let statements else {
            throw TileStoreError(.unsupported, store: location.address, message: "write before begin")
        }
        do {
            try statements.put(tile, hash: hash, storesBlob: original == nil)
        } catch {
            throw writeError(error, item: MBTilesReader.describe(tile.coordinate))
        }
        aggregate?.add(tile.coordinate, data: tile.data)
    }

    /// UTFGrids go into `grids` and `grid_data` tables as mb-util writes them.
    public var acceptsGrids: Bool { true }

    public func write(grid: UTFGrid) throws {
        guard let connection else {
            throw TileStoreError(.unsupported, store: location.address, message: "write before begin")
        }
        let item = "grid \(grid.coordinate) (TMS row \(grid.coordinate.tmsY))"
        do {
            if gridStatements == nil { gridStatements = try MBTilesGridStatements(connection: connection) }
            try gridStatements?.put(grid)
        } catch let error as SQLiteError {
            throw writeError(error, item: item)
        } catch {
            throw TileStoreError(.io, store: location.address, item: item, message: "\(error)")
        }
    }

    public func finish() throws {
        guard let connection else {
            throw TileStoreError(.unsupported, store: location.address, message: "finish before begin")
        }
        do {
            let streamed = aggregate?.finalize()
            aggregate = nil
            if writesAggregateHash {
                let aggregateHash = try streamed ?? MBTilesAggregateHash.compute(connection)
                let insert = try connection.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES ('agg_tiles_hash', ?1)")
                try insert.bind(aggregateHash.hex, at: 1)
                try insert.run()
            }
            try connection.execute("COMMIT")
            try connection.writeStagedPages()
            statements = nil
            gridStatements = nil
            self.connection = nil
            try AtomicFile.sync(path: temporaryPath)
            try AtomicFile.rename(temporaryPath, to: location.address)
            isFinished = true
        } catch {
            abort()
            throw MBTilesCatalog.writeError(error, store: location.address)
        }
    }

    public func abort() {
        aggregate?.stop()
        aggregate = nil
        statements = nil
        gridStatements = nil
        connection = nil
        AtomicFile.remove(temporaryPath)
        isFinished = true
    }

    private func writeError(_ error: SQLiteError, item: String?) -> TileStoreError {
        MBTilesCatalog.writeError(error, store: location.address, item: item)
    }
}
