import Foundation

/// Writes a new flat MBTiles 1.3 file: `metadata(name, value)` and `tiles(zoom_level,
/// tile_column, tile_row, tile_data)` with the unique `tile_index`, `application_id` "MPBX".
///
/// The file is built under a temporary name beside the destination with journaling off (nobody
/// else can see it), flushed, and renamed over the destination in `finish()`; `abort()` deletes
/// it. XYZ rows are flipped to TMS `tile_row` here. A repeated coordinate replaces the earlier
/// tile. The `scheme` metadata key is dropped: MBTiles rows are always TMS.
///
/// Errors: `.destinationExists` (without `overwrite`), `.io` (disk full, permissions).
public final class MBTilesWriter: TileWriter {
    public let location: TileStoreLocation
    private let temporaryPath: String
    private var connection: SQLiteConnection?
    private var insert: SQLiteStatement?
    private var isFinished = false

    static let schemaSQL = """
        PRAGMA application_id = 0x4d504258;
        CREATE TABLE metadata (name TEXT NOT NULL, value TEXT);
        CREATE UNIQUE INDEX name ON metadata (name);
        CREATE TABLE tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, \
        tile_row INTEGER NOT NULL, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        """

    /// Prepares to write `location`.
    /// - Parameter overwrite: replace an existing file at `finish()` (`--force`).
    /// - Throws: `TileStoreError` `.destinationExists` when the file exists and `overwrite` is false.
    public init(location: TileStoreLocation, overwrite: Bool) throws(TileStoreError) {
        self.location = location
        try AtomicFile.refuseExisting(location.path, overwrite: overwrite)
        temporaryPath = AtomicFile.temporaryPath(beside: location.path)
    }

    deinit {
        if !isFinished { abort() }
    }

    public func begin(metadata: TileMetadata) throws {
        do {
            let connection = try SQLiteConnection(path: temporaryPath, mode: .readWriteCreate)
            self.connection = connection
            try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;")
            try connection.execute(Self.schemaSQL)
            try connection.execute("BEGIN")
            let metadataInsert = try connection.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?1, ?2)")
            for entry in metadata where entry.key != "scheme" {
                try metadataInsert.bind(entry.key, at: 1)
                try metadataInsert.bind(entry.value, at: 2)
                try metadataInsert.run()
            }
            insert = try connection.prepare(
                "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)",
                persistent: true)
        } catch {
            abort()
            throw writeError(error, item: nil)
        }
    }

    public func write(_ tile: Tile) throws {
        guard let insert else {
            throw TileStoreError(.unsupported, store: location.path, message: "write before begin")
        }
        do {
            try insert.bind(tile.coordinate.z, at: 1)
            try insert.bind(tile.coordinate.x, at: 2)
            try insert.bind(tile.coordinate.tmsY, at: 3)
            try insert.bind(tile.data, at: 4)
            try insert.run()
        } catch {
            throw writeError(error, item: MBTilesReader.describe(tile.coordinate))
        }
    }

    public func finish() throws {
        guard let connection else {
            throw TileStoreError(.unsupported, store: location.path, message: "finish before begin")
        }
        do {
            try connection.execute("COMMIT")
            insert = nil
            self.connection = nil
            try AtomicFile.sync(path: temporaryPath)
            try AtomicFile.rename(temporaryPath, to: location.path)
            isFinished = true
        } catch let error as SQLiteError {
            abort()
            throw writeError(error, item: nil)
        } catch let error as POSIXFileError {
            abort()
            throw error.storeError(store: location.path)
        }
    }

    public func abort() {
        insert = nil
        connection = nil
        AtomicFile.remove(temporaryPath)
        isFinished = true
    }

    private func writeError(_ error: SQLiteError, item: String?) -> TileStoreError {
        let full = error.code == .full
        return TileStoreError(.io, store: location.path, item: item, message: error.message,
                              hint: full ? "the disk is full; free some space and run again" : nil)
    }
}
