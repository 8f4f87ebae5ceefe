import CTileSyncSQLite

/// An SQLite failure: the primary result code, SQLite's message, and the file and SQL involved.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// A primary SQLite result code (`sqlite3_errcode() & 0xFF`), matchable in `catch`.
    struct Code: RawRepresentable, Hashable, Sendable {
        /// The primary result code (`SQLITE_BUSY`, ...).
        let rawValue: Int32
        /// Wraps a primary result code.
        init(rawValue: Int32) { self.rawValue = rawValue }

        /// Generic SQL error or missing database.
        static let error = Code(rawValue: SQLITE_ERROR)
        /// The file is locked by another connection.
        static let busy = Code(rawValue: SQLITE_BUSY)
        /// A table is locked within this connection.
        static let locked = Code(rawValue: SQLITE_LOCKED)
        /// Attempt to write a read-only database.
        static let readOnly = Code(rawValue: SQLITE_READONLY)
        /// A disk I/O error.
        static let ioError = Code(rawValue: SQLITE_IOERR)
        /// The database file is malformed.
        static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        /// The disk (or database) is full.
        static let full = Code(rawValue: SQLITE_FULL)
        /// The file cannot be opened.
        static let cannotOpen = Code(rawValue: SQLITE_CANTOPEN)
        /// A constraint (unique key, NOT NULL) was violated.
        static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        /// The file is not an SQLite database.
        static let notADatabase = Code(rawValue: SQLITE_NOTADB)
        /// The operation was interrupted.
        static let interrupt = Code(rawValue: SQLITE_INTERRUPT)
    }

    /// The primary result code.
    let code: Code
    /// SQLite's message (`sqlite3_errmsg`).
    let message: String
    /// The database file.
    let path: String
    /// The statement that failed, when one did.
    let sql: String?

    var description: String {
        var text = message
        if let sql { text += " (while running: \(sql.split(whereSeparator: \.isNewline).joined(separator: " ")))" }
        return text
    }
}

extension SQLiteError.Code {
    /// Lets `catch SQLiteError.Code.busy` match an `SQLiteError` with that code.
    static func ~= (code: SQLiteError.Code, error: any Error) -> Bool {
        (error as? SQLiteError)?.code == code
    }
}
