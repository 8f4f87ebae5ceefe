/// Steps an MBTiles query to its end once: a step that fails ends it too, with the reader's
/// error naming the item.
struct MBTilesRows {
    let statement: SQLiteStatement
    private var isDone = false

    init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    /// True at the next row; false at the end, for good.
    /// - Throws: the reader's error for `item` when SQLite cannot step (the rows end then).
    mutating func step(reader: MBTilesReader, item: String?) throws(TileStoreError) -> Bool {
        guard !isDone else { return false }
        do {
            if try statement.step() { return true }
        } catch {
            isDone = true
            throw reader.readError(error, item: item)
        }
        isDone = true
        return false
    }
}
