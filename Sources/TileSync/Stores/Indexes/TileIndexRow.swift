/// Reading and writing index entries as SQLite rows `(z, x, y, size, high, low, mtime)`, the layout
/// of every temporary index table (sorted indexes, sync state).
enum TileIndexRow {
    /// Sizes a tile of a store can have (up to SQLite's largest blob).
    static let tileSizes = 1...Int(Int32.max)

    /// Columns `column` and `column + 1` hold a stored hash's two halves, or both are NULL.
    static func isHash(_ statement: SQLiteStatement, at column: Int32) -> Bool {
        statement.isNull(at: column) ? statement.isNull(at: column + 1) : statement.isInteger(at: column) && statement.isInteger(at: column + 1)
    }

    /// A column holds a time (an integer) or NULL.
    static func isTime(_ statement: SQLiteStatement, at column: Int32) -> Bool {
        statement.isNull(at: column) || statement.isInteger(at: column)
    }

    /// The entry in the current row of `statement`, whose first seven columns have that layout
    /// and were written by TileSync in this run (or checked, for a sync state from disk).
    static func entry(from statement: SQLiteStatement) -> TileIndexEntry {
        let hash = statement.isNull(at: 4) ? nil : ContentHash(storedHigh: statement.int(at: 4), storedLow: statement.int(at: 5))
        return TileIndexEntry(coordinate: TileCoordinate(unchecked: statement.int(at: 0), statement.int(at: 1), statement.int(at: 2)),
                              size: statement.int(at: 3), hash: hash,
                              modificationTime: statement.isNull(at: 6) ? nil : Int64(statement.int(at: 6)))
    }

    /// Binds a coordinate, size and optional hash to six parameters from `first` on.
    static func bind(_ coordinate: TileCoordinate, size: Int, hash: ContentHash?, to statement: SQLiteStatement,
                     from first: Int32 = 1) throws(SQLiteError) {
        try statement.bind(coordinate.z, at: first)
        try statement.bind(coordinate.x, at: first + 1)
        try statement.bind(coordinate.y, at: first + 2)
        try statement.bind(size, at: first + 3)
        try statement.bind(hash?.storedHalves.high, at: first + 4)
        try statement.bind(hash?.storedHalves.low, at: first + 5)
    }
}
