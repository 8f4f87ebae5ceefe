import CTileSyncSQLite

/// An SQLite failure: the primary result code, SQLite's message, and the file and SQL involved.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// A primary SQLite result code (`sqlite3_errcode() & 0xFF`), matchable in `catch`.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The primary result code (`SQLITE_BUSY`, ...).
        public let rawValue: Int32
        /// Wraps a primary result code.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Generic SQL error or missing database.
        public static let error = Code(rawValue: SQLITE_ERROR)
        /// The file is locked by another connection.
        public static let busy = Code(rawValue: SQLITE_BUSY)
        /// A table is locked within this connection.
        public static let locked = Code(rawValue: SQLITE_LOCKED)
        /// Attempt to write a read-only database.
        public static let readOnly = Code(rawValue: SQLITE_READONLY)
        /// A disk I/O error.
        public static let ioError = Code(rawValue: SQLITE_IOERR)
        /// The database file is malformed.
        public static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        /// The disk (or database) is full.
        public static let full = Code(rawValue: SQLITE_FULL)
        /// The file cannot be opened.
        public static let cannotOpen = Code(rawValue: SQLITE_CANTOPEN)
        /// A constraint (unique key, NOT NULL) was violated.
        public static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        /// The file is not an SQLite database.
        public static let notADatabase = Code(rawValue: SQLITE_NOTADB)
        /// The operation was interrupted.
        public static let interrupt = Code(rawValue: SQLITE_INTERRUPT)
    }

    /// The primary result code.
    public let code: Code
    /// SQLite's message (`sqlite3_errmsg`).
    public let message: String
    /// The database file.
    public let path: String
    /// The statement that failed, when one did.
    public let sql: String?

    public var description: String {
        var text = message
        if let sql { text += " (while running: \(sql.split(whereSeparator: \.isNewline).joined(separator: " ")))" }
        return text
    }
}

extension SQLiteError.Code {
    /// Lets `catch SQLiteError.Code.busy` match an `SQLiteError` with that code.
    public static func ~= (code: SQLiteError.Code, error: any Error) -> Bool {
        (error as? SQLiteError)?.code == code
    }
}
