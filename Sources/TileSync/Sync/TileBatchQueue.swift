/// A tile cursor read a batch at a time, handing out what `transform` made of each batch in
/// order (nil results left out). An error of the cursor is thrown after the items read before
/// it, and reading goes on after it, as `HashingIndexCursor` does.
final class TileBatchQueue<Element> {
    private let base: any TileCursor
    private let batchSize: Int
    private let accepts: ((TileCoordinate) throws -> Bool)?
    private let transform: ([Tile]) throws -> [Result<Element?, TileStoreError>]
    private var queue: [Result<Element?, TileStoreError>] = []
    private var position = 0
    private var pendingError: (any Error)?
    private var ended = false

    /// - Parameters:
    ///   - accepts: the coordinates to read (others are passed over untransformed); nil: all.
    ///   - transform: one result per tile of a batch, in order.
    init(base: any TileCursor, batchSize: Int, accepts: ((TileCoordinate) throws -> Bool)? = nil,
         transform: @escaping ([Tile]) throws -> [Result<Element?, TileStoreError>]) {
        self.base = base
        self.batchSize = batchSize
        self.accepts = accepts
        self.transform = transform
    }

    var skipped: SkippedItems { base.skipped }

    /// The next item; nil at the end.
    func next() throws -> Element? {
        while true {
            if position < queue.count {
                let result = queue[position]
                position += 1
                if let item = try result.get() { return item }
                continue
            }
            if let error = pendingError {
                pendingError = nil
                throw error
            }
            if ended { return nil }
            try fill()
        }
    }

    private func fill() throws {
        var batch: [Tile] = []
        while batch.count < batchSize {
            let tile: Tile?
            do {
                tile = try base.next()
            } catch {
                pendingError = error
                break
            }
            guard let tile else {
                ended = true
                break
            }
            if let accepts, try !accepts(tile.coordinate) { continue }
            batch.append(tile)
        }
        queue = try transform(batch)
        position = 0
    }
}
