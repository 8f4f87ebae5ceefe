import Foundation

/// The bytes of the tiles an unfinished download fetched, in an SQLite file beside the
/// destination (`...tilesync-downloads-partial`), each committed as it arrives so that a killed
/// run loses none it had received; deleted when the download is finished. Bytes are handed
/// back only when their MD5 is the one the download state recorded.
final class TileDownloadPartial {
    let path: String
    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private let select: SQLiteStatement

    /// Opens or creates the file; `writable` false opens an existing one read-only.
    /// - Throws: `SQLiteError` when it cannot be opened or is not such a file.
    init(path: String, writable: Bool) throws(SQLiteError) {
        self.path = path
        connection = try SQLiteConnection(path: path, mode: writable ? .readWriteCreate : .readOnly)
        if writable {
            try connection.execute("""
                PRAGMA synchronous = OFF; PRAGMA journal_mode = PERSIST; PRAGMA locking_mode = EXCLUSIVE;
                CREATE TABLE IF NOT EXISTS body (z INTEGER, x INTEGER, y INTEGER, data BLOB, UNIQUE (z, x, y));
                """)
        }
        insert = try connection.prepare(writable ? "INSERT OR REPLACE INTO body VALUES (?1, ?2, ?3, ?4)" : "SELECT 1")
        select = try connection.prepare("SELECT data FROM body WHERE z = ?1 AND x = ?2 AND y = ?3")
    }

    /// Keeps the bytes of a tile (committed at once).
    func keep(_ data: Data, at coordinate: TileCoordinate) throws(SQLiteError) {
        defer { insert.reset() }
        try insert.bind(coordinate.z, at: 1)
        try insert.bind(coordinate.x, at: 2)
        try insert.bind(coordinate.y, at: 3)
        try insert.run(binding: data, at: 4)
    }

    /// The bytes kept for a tile when their MD5 is `hash`, else nil.
    func bytes(at coordinate: TileCoordinate, hash: ContentHash) -> Data? {
        defer { select.reset() }
        guard (try? select.bind(coordinate.z, at: 1)) != nil, (try? select.bind(coordinate.x, at: 2)) != nil,
              (try? select.bind(coordinate.y, at: 3)) != nil, (try? select.step()) == true,
              let data = select.blob(at: 0), ContentHash(of: data) == hash
        else { return nil }
        return data
    }
}
