/// Walks two index streams of the same order side by side and yields every coordinate that
/// either holds, once, with both entries: the core of `verify A B`, `diff` and `sync`.
final class TileIndexMerge {
    private let source: any TileIndexCursor
    private let destination: any TileIndexCursor
    private let order: TileOrder
    private var nextSource: TileIndexEntry?
    private var nextDestination: TileIndexEntry?
    private var started = false

    /// - Parameter order: the order both cursors stream in (`SortedTileIndex.cursor`).
    init(source: any TileIndexCursor, destination: any TileIndexCursor, order: TileOrder) {
        self.source = source
        self.destination = destination
        self.order = order
    }

    /// The next coordinate present on either side, or nil when both are done.
    /// - Throws: errors of either cursor.
    func next() throws -> TileIndexPair? {
        if !started {
            started = true
            nextSource = try source.next()
            nextDestination = try destination.next()
        }
        switch (nextSource, nextDestination) {
        case (nil, nil):
            return nil
        case (let a?, nil):
            nextSource = try source.next()
            return TileIndexPair(coordinate: a.coordinate, source: a, destination: nil)
        case (nil, let b?):
            nextDestination = try destination.next()
            return TileIndexPair(coordinate: b.coordinate, source: nil, destination: b)
        case (let a?, let b?):
            if order.precedes(a.coordinate, b.coordinate) {
                nextSource = try source.next()
                return TileIndexPair(coordinate: a.coordinate, source: a, destination: nil)
            }
            if order.precedes(b.coordinate, a.coordinate) {
                nextDestination = try destination.next()
                return TileIndexPair(coordinate: b.coordinate, source: nil, destination: b)
            }
            nextSource = try source.next()
            nextDestination = try destination.next()
            return TileIndexPair(coordinate: a.coordinate, source: a, destination: b)
        }
    }
}
