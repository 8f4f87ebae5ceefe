/// Steps an MBTiles query to its end once: a step that fails ends it too, with the reader's
/// error naming the item. With listed runs, the query is run again for each run.
struct MBTilesRows {
    let statement: SQLiteStatement
    private var runs: MBTilesListedRuns?
    private var needsRun: Bool
    private var isDone = false

    init(_ statement: SQLiteStatement, runs: MBTilesListedRuns? = nil) {
        self.statement = statement
        self.runs = runs
        needsRun = runs != nil
    }

    /// True at the next row; false at the end, for good.
    /// - Throws: the reader's error for `item` when SQLite cannot step (the rows end then).
    mutating func step(reader: MBTilesReader, item: String?) throws(TileStoreError) -> Bool {
        while !isDone {
            do {
                if needsRun {
                    guard try runs?.bindNext(statement) == true else { break }
                    needsRun = false
                }
                if try statement.step() { return true }
            } catch {
                isDone = true
                throw reader.readError(error, item: item)
            }
            guard runs != nil else { break }
            needsRun = true
        }
        isDone = true
        return false
    }
}
