import Foundation

/// Hashes tiles and counts distinct blobs and repeated coordinates on a second thread while the
/// converter writes, for destinations that do not need the answer before writing (those that
/// deduplicate ask `DedupIndex` directly). The queue is bounded in bytes, so memory stays flat.
final class BlobCounter: @unchecked Sendable {
    struct Counts {
        var duplicateTiles = 0
        var duplicateBytes = 0
        var repeated = SkippedItems()
    }

    private static let maxQueuedBytes = 8 << 20

    private let index: DedupIndex
    private let repeatsCoordinates: Bool
    private let condition = NSCondition()
    private var queue: [Tile] = []
    private var queuedBytes = 0
    private var isClosed = false
    private var isDone = false
    private var counts = Counts()
    private var failure: (any Error)?

    /// - Parameter repeatsCoordinates: the source may repeat coordinates anywhere (unordered).
    init(index: DedupIndex, repeatsCoordinates: Bool) {
        self.index = index
        self.repeatsCoordinates = repeatsCoordinates
        let thread = Thread { [self] in work() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues a tile; waits while the queue is full.
    func add(_ tile: Tile) {
        condition.lock()
        while queuedBytes >= Self.maxQueuedBytes && !isDone { condition.wait() }
        queue.append(tile)
        queuedBytes += tile.data.count
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the queue to drain and returns the counts.
    /// - Throws: the first error of the temporary index.
    func finish() throws -> Counts {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !isDone { condition.wait() }
        defer { condition.unlock() }
        if let failure { throw failure }
        return counts
    }

    private func work() {
        var previous: TileCoordinate?
        var local = Counts()
        while true {
            condition.lock()
            while queue.isEmpty && !isClosed { condition.wait() }
            let batch = queue
            queue.removeAll(keepingCapacity: true)
            queuedBytes = 0
            let closing = isClosed
            condition.broadcast()
            condition.unlock()
            do {
                for tile in batch {
                    let hash = ContentHash(of: tile.data)
                    if repeatsCoordinates ? try index.wasSeen(tile.coordinate) : previous == tile.coordinate {
                        local.repeated.record("tile \(tile.coordinate)", reason: "appears again")
                        try index.forget(tile.coordinate)
                    }
                    previous = tile.coordinate
                    if let original = try index.original(of: hash, recording: tile.coordinate), original != tile.coordinate {
                        local.duplicateTiles += 1
                        local.duplicateBytes += tile.data.count
                    }
                }
            } catch {
                condition.lock()
                failure = error
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            if closing && batch.isEmpty {
                condition.lock()
                counts = local
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }
}
