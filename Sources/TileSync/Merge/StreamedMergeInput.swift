import Foundation

/// A merge source whose own tile stream already comes in the merge's order (an MBTiles with
/// its index, a PMTiles in tile-ID order): its tiles are read as they stream, no sort and no
/// lookup. The source is opened only when the merge reaches the first coordinate it holds
/// (found beforehand, `firstCoordinate`) and let go at its end, so sources whose ranges do not
/// overlap (split by zoom, by tile-ID range, bands) are open one or two at a time, however many
/// there are.
final class StreamedMergeInput: MergeInput {
    private let order: TileOrder
    private let store: String
    private let firstCoordinate: TileCoordinate?
    private let lastCoordinate: TileCoordinate?
    /// Opens the stream from its start; nil once opened (it may hold the store open).
    private var open: (() throws -> any TileCursor)?
    private var cursor: (any TileCursor)?
    private var isOpened = false
    private var skippedBeforeEnd = SkippedItems()
    private var current: Tile?
    private var needsRead = true
    private var previous: TileCoordinate?

    /// - Parameters:
    ///   - firstCoordinate: the first coordinate the source streams (nil: it has no tiles).
    ///   - lastCoordinate: a coordinate its last tile does not come after, nil when unknown.
    ///   - open: opens the source's stream from its start.
    init(firstCoordinate: TileCoordinate?, lastCoordinate: TileCoordinate? = nil, order: TileOrder, store: String,
         open: @escaping () throws -> any TileCursor) {
        self.firstCoordinate = firstCoordinate
        self.lastCoordinate = lastCoordinate
        self.order = order
        self.store = store
        self.open = open
    }

    /// An input over a stream opened already (a source whose first tile could not be read while
    /// probing: its errors then come while the merge reads it, where `--skip-invalid` sees them).
    init(openedCursor: any TileCursor, order: TileOrder, store: String) {
        firstCoordinate = nil
        lastCoordinate = nil
        self.order = order
        self.store = store
        open = nil
        cursor = openedCursor
        isOpened = true
    }

    /// The part of the merge's order the source covers (an input opened already: all of it).
    var span: MergeOverlap.Span {
        guard !isOpened else { return .whole }
        return firstCoordinate.map { .from($0, to: lastCoordinate) } ?? .empty
    }

    var skipped: SkippedItems { cursor.map { skippedBeforeEnd.adding($0.skipped) } ?? skippedBeforeEnd }

    func headCoordinate() throws -> TileCoordinate? {
        isOpened ? try head()?.coordinate : firstCoordinate
    }

    func head() throws -> TileIndexEntry? {
        if needsRead {
            current = nil
            let tile = try nextTile()
            needsRead = false
            if let tile {
                if let previous, !order.precedes(previous, tile.coordinate) {
                    throw TileStoreError(.corrupt, store: store, item: "tile \(tile.coordinate)",
                                         message: "comes after tile \(previous), out of the store's order")
                }
                previous = tile.coordinate
            }
            current = tile
        }
        return current.map { TileIndexEntry(coordinate: $0.coordinate, size: $0.data.count, hash: nil) }
    }

    func headData() throws -> Data {
        guard let current else {
            throw TileStoreError(.corrupt, store: store, message: "a merge asked for a tile past the end")
        }
        return current.data
    }

    func take() {
        needsRead = true
    }

    /// The source's next tile, opening it at the first call and letting it go after the last.
    private func nextTile() throws -> Tile? {
        if !isOpened {
            isOpened = true
            let opening = open
            open = nil
            guard firstCoordinate != nil, let opening else { return nil }
            cursor = try opening()
            let first = try cursor?.next()
            if let first, let firstCoordinate, first.coordinate != firstCoordinate {
                throw TileStoreError(.corrupt, store: store, item: "tile \(first.coordinate)",
                                     message: "comes first now, not tile \(firstCoordinate) as before: the store changed during the merge")
            }
            if first == nil { release() }
            return first
        }
        guard let cursor else { return nil }
        let tile = try cursor.next()
        if tile == nil { release() }
        return tile
    }

    private func release() {
        if let cursor { skippedBeforeEnd = skippedBeforeEnd.adding(cursor.skipped) }
        cursor = nil
    }
}
