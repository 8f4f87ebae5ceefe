import Foundation

/// Checks and repairs of an MBTiles file that go below the reader protocol: SQLite's integrity
/// check, stored hashes against the bytes, and in-place fixes of hashes and metadata in one
/// transaction (the file stays valid if the repair is interrupted).
enum MBTilesMaintenance {
    /// A stored hash that is not the MD5 of its bytes.
    struct HashMismatch {
        let item: String
        let stored: String
        let actual: ContentHash
    }

    /// Rolls back an interrupted write (a hot journal beside the file) by opening the file for
    /// writing once, as every SQLite writer does on open. Read-only connections cannot do it.
    /// Errors are left to the next real open to report.
    static func recover(path: String) {
        guard AtomicFile.exists(path + "-journal") || AtomicFile.exists(path + "-wal"),
              let connection = try? SQLiteConnection(path: path, mode: .readWrite) else { return }
        _ = try? connection.rows("SELECT count(*) FROM sqlite_master")
    }

    /// `PRAGMA integrity_check` lines other than `ok` (at most 100).
    static func integrityProblems(_ reader: MBTilesReader) throws(TileStoreError) -> [String] {
        do {
            return try reader.connection.rows("PRAGMA integrity_check(100)").compactMap { $0.first ?? nil }.filter { $0 != "ok" }
        } catch {
            throw reader.readError(error, item: nil)
        }
    }

    /// Walks the stored hashes (flat-with-hash `tile_hash`, normalized `tile_id`) and reports
    /// each one that is not the MD5 of its bytes.
    static func hashMismatches(_ reader: MBTilesReader, each: (HashMismatch) -> Void) throws(TileStoreError) -> Int {
        guard let sql = reader.storedHashRows else { return 0 }
        var checked = 0
        do {
            let statement = try reader.connection.prepare(sql)
            while try statement.step() {
                guard let data = statement.blob(at: 2) else { continue }
                checked += 1
                let actual = ContentHash(of: data)
                let stored = statement.text(at: 1) ?? "NULL"
                if ContentHash(hex: stored) != actual {
                    each(HashMismatch(item: statement.text(at: 0) ?? "?", stored: stored, actual: actual))
                }
            }
        } catch {
            throw reader.readError(error, item: nil)
        }
        return checked
    }

    /// Rewrites wrong stored hashes and sets metadata values, in one transaction.
    /// - Parameters:
    ///   - fixHashes: rewrite `tile_hash` (flat-with-hash) or `tile_id` (normalized) from the bytes.
    ///   - metadata: keys to set (nil removes nothing; every given key is replaced).
    static func repair(path: String, schema: MBTilesSchema, fixHashes: Bool, metadata: [(String, String)]) throws(TileStoreError) {
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.registerMD5Function()
            try connection.withTransaction {
                if fixHashes {
                    switch schema {
                    case .flat:
                        break
                    case .flatWithHash:
                        try connection.execute("""
                            UPDATE tiles_with_hash SET tile_hash = tilesync_md5_hex(tile_data)
                            WHERE tile_data IS NOT NULL AND tile_hash IS NOT tilesync_md5_hex(tile_data)
                            """)
                    case .normalized:
                        try connection.execute("""
                            CREATE TEMP TABLE tilesync_fix AS SELECT tile_id AS old, tilesync_md5_hex(tile_data) AS new
                                FROM images WHERE tile_data IS NOT NULL AND tile_id IS NOT tilesync_md5_hex(tile_data);
                            UPDATE map SET tile_id = (SELECT new FROM tilesync_fix WHERE old = map.tile_id)
                                WHERE tile_id IN (SELECT old FROM tilesync_fix);
                            UPDATE OR IGNORE images SET tile_id = (SELECT new FROM tilesync_fix WHERE old = images.tile_id)
                                WHERE tile_id IN (SELECT old FROM tilesync_fix);
                            DELETE FROM images WHERE tile_id IN (SELECT old FROM tilesync_fix);
                            DROP TABLE tilesync_fix;
                            """)
                    }
                }
                if !metadata.isEmpty {
                    try connection.execute("CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT)")
                    let delete = try connection.prepare("DELETE FROM metadata WHERE name = ?1")
                    let insert = try connection.prepare("INSERT INTO metadata (name, value) VALUES (?1, ?2)")
                    for (key, value) in metadata {
                        try delete.bind(key, at: 1)
                        try delete.run()
                        try insert.bind(key, at: 1)
                        try insert.bind(value, at: 2)
                        try insert.run()
                    }
                }
            }
        } catch let error as SQLiteError {
            throw TileStoreError(.io, store: path, message: "repair failed, nothing was changed: \(error)")
        } catch {
            throw TileStoreError(.io, store: path, message: "repair failed, nothing was changed: \(error)")
        }
    }
}
