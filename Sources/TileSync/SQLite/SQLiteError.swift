import CTileSyncSQLite

/// An SQLite failure: the primary result code, SQLite's message, and the file and SQL involved.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// A primary SQLite result code (`sqlite3_errcode() & 0xFF`), matchable in `catch`.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let error = Code(rawValue: SQLITE_ERROR)
        public static let busy = Code(rawValue: SQLITE_BUSY)
        public static let locked = Code(rawValue: SQLITE_LOCKED)
        public static let readOnly = Code(rawValue: SQLITE_READONLY)
        public static let ioError = Code(rawValue: SQLITE_IOERR)
        public static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        public static let full = Code(rawValue: SQLITE_FULL)
        public static let cannotOpen = Code(rawValue: SQLITE_CANTOPEN)
        public static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        public static let notADatabase = Code(rawValue: SQLITE_NOTADB)
        public static let interrupt = Code(rawValue: SQLITE_INTERRUPT)
    }

    public let code: Code
    public let message: String
    public let path: String
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
