/// Remembers, for each distinct blob of a run, the first coordinate written with it, in a
/// private temporary SQLite database (bounded memory however many tiles pass).
final class DedupIndex {
    /// Page cache of the temporary database, in KiB: enough for the upper levels of the
    /// blob table's B-tree (16-byte keys) in memory at a million tiles.
    static let cacheKiB = 1024

    private let connection: SQLiteConnection
    private let find: SQLiteStatement
    private let insert: SQLiteStatement
    private let see: SQLiteStatement
    private var forgetCoordinate: SQLiteStatement?

    init() throws(SQLiteError) {
        connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -\(Self.cacheKiB);
            CREATE TABLE blob (high INTEGER NOT NULL, low INTEGER NOT NULL, z INTEGER, x INTEGER, y INTEGER,
                               PRIMARY KEY (high, low)) WITHOUT ROWID;
            CREATE TABLE seen (z INTEGER, x INTEGER, y INTEGER, PRIMARY KEY (z, x, y)) WITHOUT ROWID;
            BEGIN;
            """)
        find = try connection.prepare("SELECT z, x, y FROM blob WHERE high = ?1 AND low = ?2", persistent: true)
        insert = try connection.prepare("INSERT OR IGNORE INTO blob (high, low, z, x, y) VALUES (?1, ?2, ?3, ?4, ?5)", persistent: true)
        see = try connection.prepare("INSERT OR IGNORE INTO seen VALUES (?1, ?2, ?3)", persistent: true)
    }

    /// Records a coordinate of a stream that may repeat coordinates; true when it came before.
    func wasSeen(_ coordinate: TileCoordinate) throws(SQLiteError) -> Bool {
        try see.bind(coordinate.z, at: 1)
        try see.bind(coordinate.x, at: 2)
        try see.bind(coordinate.y, at: 3)
        try see.run()
        return connection.changes == 0
    }

    /// Records `coordinate` as the first with `hash`; false when an earlier coordinate has it.
    func isNew(_ hash: ContentHash, recording coordinate: TileCoordinate) throws(SQLiteError) -> Bool {
        try insert.bind(hash.storedHalves.high, at: 1)
        try insert.bind(hash.storedHalves.low, at: 2)
        try insert.bind(coordinate.z, at: 3)
        try insert.bind(coordinate.x, at: 4)
        try insert.bind(coordinate.y, at: 5)
        try insert.run()
        return connection.changes == 1
    }

    /// The coordinate first recorded with `hash`, or nil after recording `coordinate` as its first.
    func original(of hash: ContentHash, recording coordinate: TileCoordinate) throws(SQLiteError) -> TileCoordinate? {
        if try isNew(hash, recording: coordinate) { return nil }
        defer { find.reset() }
        try find.bind(hash.storedHalves.high, at: 1)
        try find.bind(hash.storedHalves.low, at: 2)
        guard try find.step() else { return nil }
        return TileCoordinate(unchecked: find.int(at: 0), find.int(at: 1), find.int(at: 2))
    }

    /// Drops the blob first written at `coordinate` (its content is about to be replaced). The
    /// index on coordinates is built at the first call: most runs never repeat a coordinate.
    func forget(_ coordinate: TileCoordinate) throws(SQLiteError) {
        let statement: SQLiteStatement
        if let forgetCoordinate {
            statement = forgetCoordinate
        } else {
            try connection.execute("CREATE INDEX blob_coordinate ON blob (z, x, y)")
            statement = try connection.prepare("DELETE FROM blob WHERE z = ?1 AND x = ?2 AND y = ?3", persistent: true)
            forgetCoordinate = statement
        }
        try statement.bind(coordinate.z, at: 1)
        try statement.bind(coordinate.x, at: 2)
        try statement.bind(coordinate.y, at: 3)
        try statement.run()
    }
}
