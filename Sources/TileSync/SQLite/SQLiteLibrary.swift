import CTileSyncSQLite

/// Process-wide SQLite settings, applied once before TileSync first opens a database or looks up
/// a VFS (SQLite takes them only before it initializes; where another part of the process used
/// SQLite first, they are left as that part set them).
enum SQLiteLibrary {
    /// Memory statistics off: with them on (SQLite's default) every allocation SQLite makes takes
    /// one process-wide mutex to count it, so threads reading their own connections at once
    /// wait on each other (two threads looking tiles up in one MBTiles: 4.5 us a lookup with
    /// them, 2.2-2.7 us without). They only serve `sqlite3_memory_used` and the soft heap limit.
    private static let applied: Bool = ctilesync_sqlite_disable_memory_statistics() == SQLITE_OK

    /// Applies the settings if this is the process's first use of SQLite.
    /// - Returns: true when SQLite took them (false: something in the process initialized it first).
    @discardableResult
    static func prepare() -> Bool {
        applied
    }

    /// The bytes SQLite counts as in use (`sqlite3_memory_used`): 0 while its statistics are off.
    static var countedMemoryBytes: Int64 {
        sqlite3_memory_used()
    }
}
