/// Streams the entries of a sync state (rows checked when the state was loaded).
final class StateIndexCursor: TileIndexCursor {
    private let statement: SQLiteStatement
    let skipped = SkippedItems()

    init(statement: SQLiteStatement) {
        self.statement = statement
    }

    func next() throws -> TileIndexEntry? {
        do {
            guard try statement.step() else { return nil }
        } catch {
            throw TileStoreError(.io, store: "sync state", message: error.description)
        }
        return TileIndexRow.entry(from: statement)
    }
}
