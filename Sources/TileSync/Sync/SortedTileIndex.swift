/// A reader's index in a chosen order: its own stream when it already has that order,
/// otherwise sorted on disk (`TemporarySortedIndex`, bounded memory). Repeated coordinates
/// collapse to the last entry, as the stores read them, and an order broken by the store is an
/// error (`OrderCheckedIndexCursor`).
enum SortedTileIndex {
    /// The order two stores are best compared in: the order they share, else the one an
    /// ordered store has (so only the other is sorted), else zoom, column, row.
    static func commonOrder(_ a: TileOrder, _ b: TileOrder) -> TileOrder {
        if a != .unordered { return a }
        if b != .unordered { return b }
        return .zoomColumnRow
    }

    /// The index of `reader` in `order` (which must not be `.unordered`).
    /// - Parameters:
    ///   - listing: use the store's cheap `listing` (hashes may be missing) instead of its full `index`.
    ///   - invalid: receives per-tile problems when given; without it they are thrown.
    ///   - shouldStop: polled while sorting; true ends the sort with `.interrupted`.
    /// - Throws: `TileStoreError` from the reader, or `.io` when the temporary table fails.
    static func cursor(of reader: any TileReader, matching filter: TileFilter, order: TileOrder,
                              listing: Bool = false, invalid: ((TileStoreError) -> Void)? = nil,
                              shouldStop: @escaping () -> Bool = { false }) throws -> any TileIndexCursor {
        let source = listing ? try reader.listing(matching: filter) : try reader.index(matching: filter)
        return try sorted(source, from: reader.order, into: order, store: reader.location.address, invalid: invalid, shouldStop: shouldStop)
    }

    /// `source` (streaming in `sourceOrder`) in `order`: checked and passed through when the
    /// orders agree, else sorted on disk.
    static func sorted(_ source: any TileIndexCursor, from sourceOrder: TileOrder, into order: TileOrder, store: String,
                       invalid: ((TileStoreError) -> Void)?, shouldStop: @escaping () -> Bool = { false }) throws -> any TileIndexCursor {
        let ordered = sourceOrder == order ? source
            : try TemporarySortedIndex(source: source, order: order, store: store, invalid: invalid, shouldStop: shouldStop)
        return OrderCheckedIndexCursor(source: ordered, order: order, store: store, invalid: invalid)
    }
}
