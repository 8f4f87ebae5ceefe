import Foundation

/// martin's `agg_tiles_hash` (`AggregateTileHash`) computed on a thread of its own, so the one
/// MD5 stream over every byte written does not hold up the writing thread. Tiles are handed over
/// in batches through a queue bounded in bytes.
final class BackgroundAggregateHash: @unchecked Sendable {
    private static let maxQueuedBytes = 1 << 20
    private static let handOverBytes = 256 << 10

    private let aggregate = AggregateTileHash()
    private let condition = NSCondition()
    private var queue: [(TileCoordinate, Data)] = []
    private var queuedBytes = 0
    private var isClosed = false
    private var isDone = false
    private var pending: [(TileCoordinate, Data)] = []
    private var pendingBytes = 0
    private var result: (hash: ContentHash, isInOrder: Bool)?

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

    /// Waits for every tile to be hashed; the aggregate, and whether the tiles came in order
    /// (when not, the value is not martin's and the caller computes it with a sorted pass).
    func finalize() -> (hash: ContentHash, isInOrder: Bool) {
        stop()
        condition.lock()
        defer { condition.unlock() }
        return result ?? (ContentHash.unknown, false)
    }

    /// Ends the thread once the tiles added so far are hashed (also after an abort: the thread
    /// holds this object until it ends).
    func stop() {
        handOver()
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !isDone { condition.wait() }
        condition.unlock()
    }

    private func handOver() {
        guard !pending.isEmpty else { return }
        condition.lock()
        while queuedBytes >= Self.maxQueuedBytes && !isDone { condition.wait() }
        queue.append(contentsOf: pending)
        queuedBytes += pendingBytes
        condition.broadcast()
        condition.unlock()
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }

    private func work() {
        var batch: [(TileCoordinate, Data)] = []
        while true {
            condition.lock()
            while queue.isEmpty && !isClosed { condition.wait() }
            swap(&batch, &queue)
            queuedBytes = 0
            let closing = isClosed && batch.isEmpty
            condition.broadcast()
            condition.unlock()
            for (coordinate, data) in batch { aggregate.add(coordinate, data: data) }
            batch.removeAll(keepingCapacity: true)
            if closing {
                condition.lock()
                result = (aggregate.finalize(), aggregate.isInOrder)
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }
}
