#if canImport(CTileSyncArchive)
/// Hard-link entries waiting for their target's bytes, kept in a private temporary SQLite
/// database so that archives with many links are read in bounded memory.
final class TarLinkTable {
    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private let lookup: SQLiteStatement
    private(set) var count = 0

    init() throws(SQLiteError) {
        connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE link (target TEXT NOT NULL, position INTEGER, z INTEGER, x INTEGER, y INTEGER, entry TEXT,
                               resolved INTEGER DEFAULT 0);
            CREATE INDEX link_target ON link (target);
            """)
        insert = try connection.prepare("INSERT INTO link (target, z, x, y, entry, position) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        lookup = try connection.prepare("SELECT z, x, y FROM link WHERE target = ?1 AND position > ?2")
    }

    /// Records a link entry found at `position` in the archive.
    func add(target: String, coordinate: TileCoordinate, entry: String, position: Int) throws(SQLiteError) {
        try insert.bind(target, at: 1)
        try insert.bind(coordinate.z, at: 2)
        try insert.bind(coordinate.x, at: 3)
        try insert.bind(coordinate.y, at: 4)
        try insert.bind(entry, at: 5)
        try insert.bind(position, at: 6)
        try insert.run()
        count += 1
    }

    /// The coordinates of links to `target` that come after the entry at `position`, marked
    /// resolved. A later entry of the same name before a link takes it over (as `tar -x` does:
    /// a link names the latest entry of that name before it), so callers let the last one win.
    func takeCoordinates(linkingTo target: String, at position: Int) throws(SQLiteError) -> [TileCoordinate] {
        defer { lookup.reset() }
        try lookup.bind(target, at: 1)
        try lookup.bind(position, at: 2)
        var coordinates: [TileCoordinate] = []
        while try lookup.step() {
            coordinates.append(TileCoordinate(unchecked: lookup.int(at: 0), lookup.int(at: 1), lookup.int(at: 2)))
        }
        if !coordinates.isEmpty {
            let update = try connection.prepare("UPDATE link SET resolved = 1 WHERE target = ?1 AND position > ?2")
            try update.bind(target, at: 1)
            try update.bind(position, at: 2)
            try update.run()
        }
        return coordinates
    }

    /// Links whose target never appeared as a regular tile entry.
    func unresolved() throws(SQLiteError) -> [(entry: String, target: String)] {
        try connection.rows("SELECT entry, target FROM link WHERE resolved = 0 ORDER BY rowid").map { ($0[0] ?? "", $0[1] ?? "") }
    }
}
#endif
