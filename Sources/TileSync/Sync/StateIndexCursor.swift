/// Streams the entries of a sync state, checking each row as it goes: a coordinate off the
/// grid of zooms 0-30, a size that is no tile's, or values of the wrong type are a
/// `SyncStateDamage`, never a trap.
final class StateIndexCursor: TileIndexCursor {
    private let statement: SQLiteStatement
    private let path: String
    let skipped = SkippedItems()

    /// - Parameter statement: selects `z, x, y, size, high, low, mtime`.
    init(statement: SQLiteStatement, path: String) {
        self.statement = statement
        self.path = path
    }

    func next() throws -> TileIndexEntry? {
        do {
            guard try statement.step() else { return nil }
        } catch {
            throw SyncStateDamage(path: path, reason: "an unreadable row (\(error))")
        }
        guard (0...3).allSatisfy({ statement.isInteger(at: $0) }), TileIndexRow.tileSizes.contains(statement.int(at: 3)),
              TileIndexRow.isHash(statement, at: 4), TileIndexRow.isTime(statement, at: 6),
              let coordinate = try? TileCoordinate(z: statement.int(at: 0), x: statement.int(at: 1), y: statement.int(at: 2)) else {
            throw SyncStateDamage(path: path, reason: "a row that is no tile (\(statement.text(at: 0) ?? "NULL")/"
                + "\(statement.text(at: 1) ?? "NULL")/\(statement.text(at: 2) ?? "NULL"), size \(statement.text(at: 3) ?? "NULL"))")
        }
        let hash = statement.isNull(at: 4) ? nil : ContentHash(storedHigh: statement.int(at: 4), storedLow: statement.int(at: 5))
        return TileIndexEntry(coordinate: coordinate, size: statement.int(at: 3), hash: hash,
                              modificationTime: statement.isNull(at: 6) ? nil : Int64(statement.int(at: 6)))
    }
}
