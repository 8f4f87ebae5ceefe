import Foundation

/// Writes a patch file in martin's diff format, as the destination of a sync plan: `begin`
/// takes the metadata changes (NULL removes a key), `put` a tile to add or replace, `remove` a
/// NULL row; `finish` commits the rows into a temporary file beside the patch, `seal` adds the
/// hashes (`agg_tiles_hash_before_apply`, `agg_tiles_hash_after_apply` and the patch's own
/// `agg_tiles_hash`) and renames it into place. The layout is a flat MBTiles, as martin writes
/// it. `abort` leaves nothing behind.
final class PatchFileWriter: TileUpdater {
    let location: TileStoreLocation
    /// Where the patch is built until `seal`.
    let temporaryPath: String
    private var connection: SQLiteConnection?
    private var insert: SQLiteStatement?
    private(set) var puts = 0
    private(set) var deletes = 0
    private(set) var bytesPut = 0
    /// SQLite's default page: a patch is shipped to devices, and most hold few tiles.
    static let pageSize = 4096

    /// - Throws: `.destinationExists` when the patch exists and `overwrite` is false, `.io`.
    init(path: String, overwrite: Bool) throws(TileStoreError) {
        location = PatchFileLocation.at(path)
        try AtomicFile.refuseExisting(path, overwrite: overwrite)
        AtomicFile.removeStaleTemporaries(of: path)
        temporaryPath = AtomicFile.temporaryPath(beside: path)
        do {
            let connection = try SQLiteConnection(path: temporaryPath, mode: .readWriteCreate)
            try connection.execute("PRAGMA page_size = \(Self.pageSize);")
            try connection.execute(MBTilesWriter.schemaSQL(.flat))
            self.connection = connection
        } catch {
            abort()
            throw MBTilesCatalog.writeError(error, store: path, item: nil)
        }
    }

    deinit {
        abort()
    }

    func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        guard let connection else { throw closed() }
        do {
            try connection.execute("BEGIN")
            let metadataInsert = try connection.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?1, ?2)")
            for entry in metadata where !PatchMetadataKeys.bookkeeping.contains(entry.key) {
                try metadataInsert.bind(entry.key, at: 1)
                try metadataInsert.bind(entry.value, at: 2)
                try metadataInsert.run()
            }
            insert = try connection.prepare(
                "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)")
        } catch {
            abort()
            throw MBTilesCatalog.writeError(error, store: location.address, item: "metadata")
        }
    }

    func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        try write(tile.coordinate, data: tile.data)
        puts += 1
        bytesPut += tile.data.count
    }

    func remove(_ coordinate: TileCoordinate) throws {
        try write(coordinate, data: nil)
        deletes += 1
    }

    private func write(_ coordinate: TileCoordinate, data: Data?) throws {
        guard let insert else { throw closed() }
        do {
            try insert.bindMBTilesCoordinate(coordinate)
            if let data { try insert.run(binding: data, at: 4) } else {
                try insert.bind(nil as String?, at: 4)
                try insert.run()
            }
        } catch {
            throw MBTilesCatalog.writeError(error, store: location.address, item: MBTilesReader.describe(coordinate))
        }
    }

    /// Commits the rows to the temporary file (not yet in place).
    func finish() throws {
        guard let connection else { throw closed() }
        insert = nil
        do {
            try connection.execute("COMMIT")
        } catch {
            abort()
            throw MBTilesCatalog.writeError(error, store: location.address, item: nil)
        }
    }

    /// Records the store's hash before and after the patch and the patch's own, then moves the
    /// patch into place.
    /// - Throws: `TileStoreError` `.io` (the temporary file is removed).
    func seal(before: ContentHash, after: ContentHash) throws {
        guard let connection else { throw closed() }
        do {
            try connection.execute("BEGIN")
            let own = try MBTilesAggregateHash.compute(connection)
            let insert = try connection.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?1, ?2)")
            for (key, hash) in [(PatchMetadataKeys.aggregateHash, own), (PatchMetadataKeys.before, before), (PatchMetadataKeys.after, after)] {
                try insert.bind(key, at: 1)
                try insert.bind(hash.hex, at: 2)
                try insert.run()
            }
            try connection.execute("COMMIT")
            self.connection = nil
            try AtomicFile.sync(path: temporaryPath)
            try AtomicFile.rename(temporaryPath, to: location.address)
        } catch {
            abort()
            throw MBTilesCatalog.writeError(error, store: location.address)
        }
    }

    func abort() {
        insert = nil
        guard connection != nil || AtomicFile.exists(temporaryPath) else { return }
        connection = nil
        AtomicFile.remove(temporaryPath)
        AtomicFile.remove(temporaryPath + "-journal")
    }

    private func closed() -> TileStoreError {
        TileStoreError(.io, store: location.address, message: "the patch is no longer open")
    }
}
