import CTileSyncSQLite
import Foundation

/// A compiled SQL statement. Finalized in `deinit`. Column and parameter indexes: columns
/// from 0, parameters from 1 (SQLite's convention).
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection
    let sql: String

    init(statement: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.statement = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Advances to the next row (`sqlite3_step`): true when a row is ready, false when done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result: throw connection.makeError(result, sql: sql)
        }
    }

    /// Runs a statement that returns no rows, then resets it for reuse.
    func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    func reset() {
        sqlite3_reset(statement)
    }

    func clearBindings() {
        sqlite3_clear_bindings(statement)
    }

    func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(statement, index, sqlite3_int64(value)))
    }

    func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(statement, index)) }
        try check(sqlite3_bind_int64(statement, index, sqlite3_int64(value)))
    }

    func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(statement, index)) }
        try check(sqlite3_bind_double(statement, index, value))
    }

    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(statement, index)) }
        try check(sqlite3_bind_text(statement, index, value, -1, ctilesync_sqlite_transient()))
    }

    /// Binds bytes (SQLite copies them; an empty value binds a zero-length blob, not NULL).
    func bind(_ value: Data, at index: Int32) throws(SQLiteError) {
        let result = value.withUnsafeBytes { buffer in
            sqlite3_bind_blob64(statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                sqlite3_uint64(buffer.count), ctilesync_sqlite_transient())
        }
        try check(result)
    }

    /// Binds bytes without copying them and runs the statement (`run()`) while they are bound;
    /// the binding is cleared afterwards, so SQLite never holds the pointer past the call.
    func run(binding value: Data, at index: Int32) throws(SQLiteError) {
        var failure: SQLiteError?
        value.withUnsafeBytes { buffer in
            do throws(SQLiteError) {
                try check(sqlite3_bind_blob64(statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                              sqlite3_uint64(buffer.count), nil))
                try run()
            } catch {
                failure = error
            }
            sqlite3_bind_null(statement, index)
        }
        if let failure { throw failure }
    }

    var columnCount: Int32 { sqlite3_column_count(statement) }

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    /// True when the column holds an INTEGER (not text, real or blob).
    func isInteger(at column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_INTEGER
    }

    func int(at column: Int32) -> Int {
        Int(sqlite3_column_int64(statement, column))
    }

    /// True when the column holds a REAL or an INTEGER.
    func isNumber(at column: Int32) -> Bool {
        let type = sqlite3_column_type(statement, column)
        return type == SQLITE_INTEGER || type == SQLITE_FLOAT
    }

    func double(at column: Int32) -> Double {
        sqlite3_column_double(statement, column)
    }

    func text(at column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Calls `body` with the column's value as UTF-8 text in place (empty for NULL); the pointer
    /// is valid only during the call, until the statement steps again.
    func withText<T>(at column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let pointer = sqlite3_column_text(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let pointer, count > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column's bytes (a zero-length blob is empty `Data`), or nil for NULL.
    func blob(at column: Int32) -> Data? {
        if sqlite3_column_type(statement, column) == SQLITE_NULL { return nil }
        let pointer = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let pointer, count > 0 else { return Data() }
        return Data(bytes: pointer, count: count)
    }

    /// Calls `body` with the column's bytes in place (empty for NULL or a zero-length blob); the
    /// pointer is valid only during the call, until the statement steps again.
    func withBlob<T>(at column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let pointer = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let pointer, count > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func check(_ result: Int32) throws(SQLiteError) {
        guard result == SQLITE_OK else { throw connection.makeError(result, sql: sql) }
    }
}
