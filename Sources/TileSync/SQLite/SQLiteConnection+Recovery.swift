extension SQLiteConnection {
    /// Rolls back an interrupted write (a hot journal beside the file) by opening the file for
    /// writing once, as every SQLite writer does on open; read-only connections cannot. Errors
    /// are left to the next real open to report.
    static func rollBackInterruptedWrite(path: String) {
        guard AtomicFile.exists(path + "-journal") || AtomicFile.exists(path + "-wal"),
              let connection = try? SQLiteConnection(path: path, mode: .readWrite) else { return }
        _ = try? connection.rows("SELECT count(*) FROM sqlite_master")
    }
}
