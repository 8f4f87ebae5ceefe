/// Sorts an index stream on disk: entries are appended to a private temporary SQLite table with
/// the order's `sortKey` and read back through SQLite's sorter (`ORDER BY key`, then arrival),
/// which spills to temporary files, so memory stays bounded. Repeated coordinates come out
/// next to each other, oldest first; `SortedTileIndex` keeps the last.
final class TemporarySortedIndex: TileIndexCursor {
    /// How many entries go in between two looks at `shouldStop`.
    private static let stopCheckInterval = 4096

    private let connection: SQLiteConnection
    private let select: SQLiteStatement
    private let store: String
    let skipped: SkippedItems

    init(source: any TileIndexCursor, order: TileOrder, store: String, invalid: ((TileStoreError) -> Void)?,
         shouldStop: () -> Bool = { false }) throws {
        self.store = store
        do {
            connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                CREATE TABLE entry (key INTEGER, z INTEGER, x INTEGER, y INTEGER, size INTEGER, high INTEGER, low INTEGER, mtime INTEGER);
                BEGIN;
                """)
            let insert = try connection.prepare("INSERT INTO entry VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
            var count = 0
            while true {
                let entry: TileIndexEntry?
                do {
                    entry = try source.next()
                } catch let error as TileStoreError where error.kind == .invalidTile && invalid != nil {
                    invalid?(error)
                    continue
                }
                guard let entry else { break }
                count += 1
                if count % Self.stopCheckInterval == 0, shouldStop() {
                    throw TileStoreError(.interrupted, store: store, message: "stopped while sorting the tile index")
                }
                try insert.bind(order.sortKey(entry.coordinate), at: 1)
                try TileIndexRow.bind(entry.coordinate, size: entry.size, hash: entry.hash, to: insert, from: 2)
                try insert.bind(entry.modificationTime.map { Int($0) }, at: 8)
                try insert.run()
            }
            try connection.execute("COMMIT")
            select = try connection.prepare("SELECT z, x, y, size, high, low, mtime FROM entry ORDER BY key, rowid")
        } catch let error as SQLiteError {
            throw TileStoreError(.io, store: store, message: "cannot sort the tile index in a temporary table: \(error)")
        }
        skipped = source.skipped
    }

    func next() throws -> TileIndexEntry? {
        do {
            guard try select.step() else { return nil }
        } catch {
            throw TileStoreError(.io, store: store, message: "temporary index failed: \(error)")
        }
        return TileIndexRow.entry(from: select)
    }
}
