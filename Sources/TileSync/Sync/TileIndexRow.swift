/// Reading and writing index entries as SQLite rows `(z, x, y, size, high, low, mtime)`, the layout
/// of every temporary index table (sorted indexes, sync state).
enum TileIndexRow {
    /// The entry in the current row of `statement`, whose first seven columns have that layout.
    static func entry(from statement: SQLiteStatement) -> TileIndexEntry {
        let hash = statement.isNull(at: 4) ? nil : ContentHash(storedHigh: statement.int(at: 4), storedLow: statement.int(at: 5))
        return TileIndexEntry(coordinate: TileCoordinate(unchecked: statement.int(at: 0), statement.int(at: 1), statement.int(at: 2)),
                              size: statement.int(at: 3), hash: hash,
                              modificationTime: statement.isNull(at: 6) ? nil : Int64(statement.int(at: 6)))
    }

    /// Binds a coordinate, size and optional hash to parameters 1 to 6.
    static func bind(_ coordinate: TileCoordinate, size: Int, hash: ContentHash?, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(coordinate.z, at: 1)
        try statement.bind(coordinate.x, at: 2)
        try statement.bind(coordinate.y, at: 3)
        try statement.bind(size, at: 4)
        try statement.bind(hash?.storedHalves.high, at: 5)
        try statement.bind(hash?.storedHalves.low, at: 6)
    }
}
