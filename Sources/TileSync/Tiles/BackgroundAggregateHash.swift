import Foundation

/// martin's `agg_tiles_hash` (`AggregateTileHash`) computed on a thread of its own, so the one
/// MD5 stream over every byte written does not hold up the writing thread. Tiles are handed over
/// in batches through a queue bounded in bytes.
final class BackgroundAggregateHash: @unchecked Sendable {
    private static let handOverBytes = 256 << 10

    private let aggregate = AggregateTileHash()
    private let queue = BoundedBatchQueue<(TileCoordinate, Data)>(maxBytes: 1 << 20)
    private var pending: [(TileCoordinate, Data)] = []
    private var pendingBytes = 0
    private var result: ContentHash?

    init() {
        let thread = Thread { [self] in work() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        stop()
    }

    /// Adds a tile (in zoom, column, TMS row order for martin's value).
    func add(_ coordinate: TileCoordinate, data: Data) {
        pending.append((coordinate, data))
        pendingBytes += data.count
        if pendingBytes >= Self.handOverBytes { handOver() }
    }

    /// Waits for every tile to be hashed: martin's aggregate, or nil when the tiles did not come
    /// in its order (or hashing failed), and the caller computes it with a sorted pass.
    func finalize() -> ContentHash? {
        stop()
        return result
    }

    /// Ends the thread once the tiles added so far are hashed (also after an abort: the thread
    /// holds this object until it ends).
    func stop() {
        handOver()
        queue.close()
        queue.waitUntilFinished()
    }

    private func handOver() {
        guard !pending.isEmpty else { return }
        queue.put(&pending, bytes: pendingBytes)
        pendingBytes = 0
    }

    private func work() {
        var batch: [(TileCoordinate, Data)] = []
        while queue.take(into: &batch) {
            for (coordinate, data) in batch { aggregate.add(coordinate, data: data) }
        }
        result = aggregate.isInOrder ? try? aggregate.finalize() : nil
        queue.markFinished()
    }
}
