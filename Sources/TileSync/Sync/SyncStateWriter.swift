import Foundation

/// Builds the next sync state in a temporary file and renames it into place at the end. The
/// temporary file is beside the state, or, while the folder that will hold it does not exist yet
/// (a sync creating a folder), beside that folder, named after it so that the clean-up of
/// killed runs finds it.
final class SyncStateWriter {
    private let path: String
    private let temporaryPath: String
    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private let setHash: SQLiteStatement

    init(path: String) throws(SQLiteError) {
        self.path = path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        temporaryPath = AtomicFile.temporaryPath(beside: AtomicFile.exists(folder) ? path : folder + ".tilesync-state")
        connection = try SQLiteConnection(path: temporaryPath, mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE entry (z INTEGER, x INTEGER, y INTEGER, size INTEGER, high INTEGER, low INTEGER,
                                smtime INTEGER, dmtime INTEGER, in_source INTEGER, PRIMARY KEY (z, x, y)) WITHOUT ROWID;
            BEGIN;
            """)
        insert = try connection.prepare("INSERT OR REPLACE INTO entry VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
        setHash = try connection.prepare("UPDATE entry SET high = ?4, low = ?5, size = ?6 WHERE z = ?1 AND x = ?2 AND y = ?3")
    }

    deinit {
        AtomicFile.remove(temporaryPath)
    }

    func add(_ coordinate: TileCoordinate, size: Int, hash: ContentHash?, sourceModificationTime: Int64?,
             destinationModificationTime: Int64?, inSource: Bool) throws(SQLiteError) {
        try TileIndexRow.bind(coordinate, size: size, hash: hash, to: insert)
        try insert.bind(sourceModificationTime.map { Int($0) }, at: 7)
        try insert.bind(destinationModificationTime.map { Int($0) }, at: 8)
        try insert.bind(inSource ? 1 : 0, at: 9)
        try insert.run()
    }

    /// Records the hash and size of a tile written by the sync.
    func record(_ coordinate: TileCoordinate, hash: ContentHash, size: Int) throws(SQLiteError) {
        try setHash.bind(coordinate.z, at: 1)
        try setHash.bind(coordinate.x, at: 2)
        try setHash.bind(coordinate.y, at: 3)
        try setHash.bind(hash.storedHalves.high, at: 4)
        try setHash.bind(hash.storedHalves.low, at: 5)
        try setHash.bind(size, at: 6)
        try setHash.run()
    }

    /// Writes identity and stamps, then renames the state into place.
    /// - Parameter destinationAggregateHash: the destination's `agg_tiles_hash` as this run
    ///   leaves it, when known for certain (committed by this run, or recorded by the last one
    ///   for a destination this run did not change).
    func finish(identity: String, sourceStamp: String?, destinationStamp: String?, destinationAggregateHash: ContentHash? = nil) throws {
        let meta = try connection.prepare("INSERT INTO meta VALUES (?1, ?2)")
        for (key, value) in [("version", SyncState.version), ("identity", identity),
                             ("source_stamp", sourceStamp), ("destination_stamp", destinationStamp),
                             ("destination_agg_tiles_hash", destinationAggregateHash?.hex)] {
            try meta.bind(key, at: 1)
            try meta.bind(value, at: 2)
            try meta.run()
        }
        try connection.execute("COMMIT")
        try AtomicFile.rename(temporaryPath, to: path)
    }
}
