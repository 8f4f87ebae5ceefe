/// A reader's index in a chosen order: its own stream when it already has that order,
/// otherwise sorted on disk through a private temporary SQLite table (bounded memory).
/// Repeated coordinates collapse to the last entry, as the stores read them.
public enum SortedTileIndex {
    /// The order two stores are best compared in: the order they share, else the one an
    /// ordered store has (so only the other is sorted), else zoom, column, row.
    public static func commonOrder(_ a: TileOrder, _ b: TileOrder) -> TileOrder {
        if a != .unordered { return a }
        if b != .unordered { return b }
        return .zoomColumnRow
    }

    /// The index of `reader` in `order` (which must not be `.unordered`).
    /// - Parameter invalid: receives per-tile problems when given; without it they are thrown.
    /// - Throws: `TileStoreError` from the reader, or `.io` when the temporary table fails.
    /// - Parameter listing: use the store's cheap `listing` (hashes may be missing) instead of
    ///   its full `index`.
    public static func cursor(of reader: any TileReader, matching filter: TileFilter, order: TileOrder,
                              listing: Bool = false,
                              invalid: ((TileStoreError) -> Void)? = nil) throws -> any TileIndexCursor {
        let source = listing ? try reader.listing(matching: filter) : try reader.index(matching: filter)
        if reader.order == order { return OrderCheckedIndexCursor(source: source, order: order, store: reader.location.path, invalid: invalid) }
        return try TemporarySortedIndex(source: source, order: order, store: reader.location.path, invalid: invalid)
    }
}

/// Passes an ordered stream through, collapsing repeated coordinates to the last entry and
/// refusing a stream that breaks its declared order.
final class OrderCheckedIndexCursor: TileIndexCursor {
    private let source: any TileIndexCursor
    private let order: TileOrder
    private let store: String
    private let invalid: ((TileStoreError) -> Void)?
    private var pending: TileIndexEntry?
    private var started = false

    init(source: any TileIndexCursor, order: TileOrder, store: String, invalid: ((TileStoreError) -> Void)?) {
        self.source = source
        self.order = order
        self.store = store
        self.invalid = invalid
    }

    var skipped: SkippedItems { source.skipped }

    func next() throws -> TileIndexEntry? {
        if !started {
            started = true
            pending = try pull()
        }
        guard var current = pending else { return nil }
        while let following = try pull() {
            if following.coordinate == current.coordinate {
                current = following
                continue
            }
            guard order.precedes(current.coordinate, following.coordinate) else {
                throw TileStoreError(.corrupt, store: store, item: "tile \(following.coordinate)",
                                     message: "comes after tile \(current.coordinate), out of the store's order")
            }
            pending = following
            return current
        }
        pending = nil
        return current
    }

    private func pull() throws -> TileIndexEntry? {
        while true {
            do {
                return try source.next()
            } catch let error as TileStoreError where error.kind == .invalidTile && invalid != nil {
                invalid?(error)
            }
        }
    }
}

/// Sorts an index stream through a temporary SQLite table keyed by coordinate.
final class TemporarySortedIndex: TileIndexCursor {
    private let connection: SQLiteConnection
    private let select: SQLiteStatement
    let skipped: SkippedItems

    init(source: any TileIndexCursor, order: TileOrder, store: String,
         invalid: ((TileStoreError) -> Void)?) throws {
        do {
            connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                CREATE TABLE entry (z INTEGER, x INTEGER, y INTEGER, size INTEGER, high INTEGER, low INTEGER,
                                    mtime INTEGER, PRIMARY KEY (z, x, y)) WITHOUT ROWID;
                BEGIN;
                """)
            let insert = try connection.prepare("INSERT OR REPLACE INTO entry VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
            while true {
                let entry: TileIndexEntry?
                do {
                    entry = try source.next()
                } catch let error as TileStoreError where error.kind == .invalidTile && invalid != nil {
                    invalid?(error)
                    continue
                }
                guard let entry else { break }
                try TileIndexRow.bind(entry.coordinate, size: entry.size, hash: entry.hash, to: insert)
                try insert.bind(entry.modificationTime.map { Int($0) }, at: 7)
                try insert.run()
            }
            try connection.execute("COMMIT")
            let direction = order == .zoomColumnTMSRow ? "DESC" : "ASC"
            select = try connection.prepare("SELECT z, x, y, size, high, low, mtime FROM entry ORDER BY z, x, y \(direction)")
        } catch let error as SQLiteError {
            throw TileStoreError(.io, store: store, message: "cannot sort the tile index in a temporary table: \(error)")
        }
        skipped = source.skipped
    }

    func next() throws -> TileIndexEntry? {
        do {
            guard try select.step() else { return nil }
        } catch {
            throw TileStoreError(.io, store: "temporary index", message: error.description)
        }
        return TileIndexRow.entry(from: select)
    }
}
