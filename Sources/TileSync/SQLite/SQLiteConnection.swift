import CTileSyncSQLite
import Foundation

/// An open SQLite database. Owns its `sqlite3*` handle and closes it in `deinit`, also when
/// opening failed. Not thread-safe: use one connection per thread.
final class SQLiteConnection {
    enum Mode {
        /// `SQLITE_OPEN_READONLY`: never writes, never creates.
        case readOnly
        /// `SQLITE_OPEN_READWRITE`: an existing file only.
        case readWrite
        /// `SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`.
        case readWriteCreate
    }

    let path: String
    private var handle: OpaquePointer?
    private var progressCheck: Unmanaged<ProgressCheck>?

    /// Holds the closure a progress handler calls.
    private final class ProgressCheck {
        let shouldStop: () -> Bool
        init(_ shouldStop: @escaping () -> Bool) { self.shouldStop = shouldStop }
    }

    /// Opens (or, for `.readWriteCreate`, creates) a database file.
    /// - Parameter vfs: the name of a registered VFS (`SQLiteStagedWriteVFS.name`), nil for the default.
    /// - Throws: `SQLiteError` with SQLite's message (`sqlite3_open_v2`).
    init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 5000, vfs: String? = nil) throws(SQLiteError) {
        self.path = path
        SQLiteLibrary.prepare()
        var flags = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        let result = sqlite3_open_v2(path, &handle, flags, vfs)
        guard result == SQLITE_OK else { throw makeError(result, sql: nil) }
        sqlite3_extended_result_codes(handle, 0)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        sqlite3_close_v2(handle)
        progressCheck?.release()
    }

    /// Makes long statements stop with `SQLITE_INTERRUPT` once `shouldStop` returns true; it is
    /// asked every few thousand virtual-machine steps (`sqlite3_progress_handler`), so even a
    /// query that never ends (a recursive view) can be cancelled.
    func setCancellation(_ shouldStop: @escaping () -> Bool) {
        progressCheck?.release()
        let check = Unmanaged.passRetained(ProgressCheck(shouldStop))
        progressCheck = check
        sqlite3_progress_handler(handle, 10_000, { context in
            guard let context else { return 0 }
            return Unmanaged<ProgressCheck>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
        }, check.toOpaque())
    }

    /// Runs one or more statements that return no rows (`sqlite3_exec`).
    func execute(_ sql: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw makeError(result, sql: sql) }
    }

    /// Reads the file through a memory map of up to `bytes` from now on (`PRAGMA mmap_size`;
    /// SQLite caps it at its build's maximum, 0 reads with read calls). Best effort: a
    /// connection that cannot map keeps reading with read calls.
    func readThroughMemoryMap(upTo bytes: Int) {
        try? execute("PRAGMA mmap_size = \(max(0, bytes))")
    }

    /// Compiles one statement (`sqlite3_prepare_v3`).
    func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw makeError(result == SQLITE_OK ? SQLITE_MISUSE : result, sql: sql)
        }
        return SQLiteStatement(statement: statement, connection: self, sql: sql)
    }

    /// The rows of a query as text columns (NULL as nil): for small catalog queries only.
    func rows(_ sql: String) throws(SQLiteError) -> [[String?]] {
        let statement = try prepare(sql)
        var rows: [[String?]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.text(at: $0) })
        }
        return rows
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws and
    /// rethrows that first error.
    func withTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Adds `tilesync_md5_hex(blob)` to this connection's SQL: the uppercase hex MD5 of a
    /// blob or text, NULL for NULL (`sqlite3_create_function_v2`).
    func registerMD5Function() throws(SQLiteError) {
        let result = sqlite3_create_function_v2(
            handle, "tilesync_md5_hex", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 1, let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL else {
                    sqlite3_result_null(context)
                    return
                }
                let size = Int(sqlite3_value_bytes(value))
                let data = sqlite3_value_blob(value).map { Data(bytes: $0, count: size) } ?? Data()
                sqlite3_result_text(context, MD5Hasher.hash(data).hex, -1, ctilesync_sqlite_transient())
            }, nil, nil, nil)
        guard result == SQLITE_OK else { throw makeError(result, sql: "tilesync_md5_hex") }
    }

    /// Writes the main database's pages staged by `SQLiteStagedWriteVFS` and waits for them
    /// (nothing for a connection of another VFS). Call it after the last commit: SQLite ignores
    /// the result of closing a file, so a staged write that fails late shows only here.
    /// - Throws: `SQLiteError` `.full` for a full disk, else `.ioError`, with the system's message.
    func writeStagedPages() throws(SQLiteError) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK, let file else { return }
        do {
            try SQLiteStagedWriteVFS.writeStagedPages(of: file)
        } catch {
            throw SQLiteError(code: error.isDiskFull ? .full : .ioError, message: "\(error)", path: path, sql: nil)
        }
    }

    /// Pages this connection had to read from the file because its page cache did not hold
    /// them (`SQLITE_DBSTATUS_CACHE_MISS`), since it opened.
    var cacheMisses: Int {
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 0)
        return Int(current)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE (`sqlite3_changes64`).
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Asks a running statement on this connection to stop (`sqlite3_interrupt`); safe from
    /// another thread.
    func interrupt() {
        sqlite3_interrupt(handle)
    }

    func makeError(_ result: Int32, sql: String?) -> SQLiteError {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(result))
        return SQLiteError(code: .init(rawValue: result & 0xFF), message: message, path: path, sql: sql)
    }
}
