import Foundation

/// A merge source whose own tile stream already comes in the merge's order (an MBTiles with
/// its index, a PMTiles in tile-ID order): no sort and no lookup by coordinate. Its tiles are
/// read as they stream, or only those the merge takes when the source lists its coordinates
/// more cheaply (`LazyTileCursor`: an MBTiles' index, a PMTiles' directories, a folder's names).
/// The source is opened only when the merge reaches the first coordinate it holds (found
/// beforehand, `firstCoordinate`) and let go at its end, so sources whose ranges do not overlap
/// (split by zoom, by tile-ID range, bands) are open one or two at a time, however many there
/// are.
final class StreamedMergeInput: MergeInput {
    private let order: TileOrder
    private let store: String
    private let firstCoordinate: TileCoordinate?
    private let lastCoordinate: TileCoordinate?
    /// Opens the stream from its start; nil once opened (it may hold the store open).
    @exclusivity(unchecked) private var open: (() throws -> any LazyTileCursor)?
    @exclusivity(unchecked) private var cursor: (any LazyTileCursor)?
    @exclusivity(unchecked) private var isOpened = false
    @exclusivity(unchecked) private var skippedBeforeEnd = SkippedItems()
    @exclusivity(unchecked) private var current: TileCoordinate?
    /// The size of the current tile when the cursor knows it without reading.
    @exclusivity(unchecked) private var currentSize: Int?
    @exclusivity(unchecked) private var needsRead = true
    @exclusivity(unchecked) private var previous: TileCoordinate?

    /// - Parameters:
    ///   - firstCoordinate: the first coordinate the source streams (nil: it has no tiles).
    ///   - lastCoordinate: a coordinate its last tile does not come after, nil when unknown.
    ///   - open: opens the source's stream from its start.
    init(firstCoordinate: TileCoordinate?, lastCoordinate: TileCoordinate? = nil, order: TileOrder, store: String,
         open: @escaping () throws -> any LazyTileCursor) {
        self.firstCoordinate = firstCoordinate
        self.lastCoordinate = lastCoordinate
        self.order = order
        self.store = store
        self.open = open
    }

    /// An input over a stream opened already (a source whose first tile could not be read while
    /// probing: its errors then come while the merge reads it, where `--skip-invalid` sees them).
    init(openedCursor: any LazyTileCursor, order: TileOrder, store: String) {
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
            currentSize = nil
            let coordinate = try nextCoordinate()
            needsRead = false
            if let coordinate {
                if let previous, !order.precedes(previous, coordinate) {
                    throw TileStoreError(.corrupt, store: store, item: "tile \(coordinate)",
                                         message: "comes after tile \(previous), out of the store's order")
                }
                previous = coordinate
            }
            current = coordinate
            currentSize = coordinate == nil ? nil : cursor?.knownSize
        }
        return current.map { TileIndexEntry(coordinate: $0, size: currentSize ?? 0, hash: nil) }
    }

    var headSizeIsKnown: Bool { currentSize != nil }

    func headData() throws -> Data {
        guard current != nil, let cursor else {
            throw TileStoreError(.corrupt, store: store, message: "a merge asked for a tile past the end")
        }
        return try cursor.data()
    }

    func take() {
        needsRead = true
    }

    var countsAhead: Bool { isOpened && (cursor?.countsAhead ?? true) }

    func countAhead(through last: TileCoordinate) throws -> Int? {
        guard isOpened, needsRead else { return nil }
        guard let cursor else { return 0 }
        return try cursor.countAhead(through: last)
    }

    func skipAhead(past last: TileCoordinate) throws -> Bool {
        guard isOpened, needsRead else { return false }
        guard let cursor else { return true }
        guard try cursor.skipAhead(past: last) else { return false }
        previous = last
        return true
    }

    /// The source's next coordinate, opening it at the first call and letting it go after the last.
    private func nextCoordinate() throws -> TileCoordinate? {
        if !isOpened {
            isOpened = true
            let opening = open
            open = nil
            guard firstCoordinate != nil, let opening else { return nil }
            cursor = try opening()
            let first = try cursor?.next()
            if let first, let firstCoordinate, first != firstCoordinate {
                throw TileStoreError(.corrupt, store: store, item: "tile \(first)",
                                     message: "comes first now, not tile \(firstCoordinate) as before: the store changed during the merge")
            }
            if first == nil { release() }
            return first
        }
        guard let cursor else { return nil }
        let coordinate = try cursor.next()
        if coordinate == nil { release() }
        return coordinate
    }

    private func release() {
        if let cursor { skippedBeforeEnd = skippedBeforeEnd.adding(cursor.skipped) }
        cursor = nil
    }
}
