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
