import Foundation

/// Fingerprints tiles (`BlobFingerprint`) and counts distinct blobs and repeated
/// coordinates on a second thread while the converter writes, for destinations that do not need
/// the answer before writing (those that deduplicate ask `DedupIndex` directly). Ordered sources
/// are tallied by sorting (`FingerprintTally`); sources that may repeat a coordinate anywhere go
/// through the temporary index, which remembers coordinates. The queue is bounded in bytes, so memory stays flat.
final class BlobCounter: @unchecked Sendable {
    struct Counts {
        var duplicateTiles = 0
        var duplicateBytes = 0
        var repeated = SkippedItems()
    }

    private static let maxQueuedBytes = 1 << 20
    private static let handOverBytes = 256 << 10
    private static let handOverTiles = 256
    /// Tiles added on the caller's thread, not yet handed over.
    private var pending: [(Tile, ContentHash?)] = []
    private var pendingBytes = 0

    private let index: DedupIndex
    private let repeatsCoordinates: Bool
    private let condition = NSCondition()
    private var queue: [(Tile, ContentHash?)] = []
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

    /// Queues a tile; hands tiles over in batches of about 256 KiB (one lock and wake-up per
    /// batch, not per tile) and waits while the queue is full.
    /// - Parameter key: the tile's MD5 when already computed, used instead of a fingerprint.
    func add(_ tile: Tile, key: ContentHash? = nil) {
        pending.append((tile, key))
        pendingBytes += tile.data.count
        if pendingBytes >= Self.handOverBytes || pending.count >= Self.handOverTiles { handOver() }
    }

    private func handOver() {
        guard !pending.isEmpty else { return }
        condition.lock()
        while queuedBytes >= Self.maxQueuedBytes && !isDone { condition.wait() }
        let wasEmpty = queue.isEmpty
        queue.append(contentsOf: pending)
        queuedBytes += pendingBytes
        if wasEmpty { condition.broadcast() }
        condition.unlock()
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }

    /// Waits for the queue to drain and returns the counts.
    /// - Throws: the first error of the temporary index.
    func finish() throws -> Counts {
        handOver()
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
        let tally = repeatsCoordinates ? nil : FingerprintTally()
        var batch: [(Tile, ContentHash?)] = []
        while true {
            condition.lock()
            while queue.isEmpty && !isClosed { condition.wait() }
            swap(&batch, &queue)
            queuedBytes = 0
            let isLast = isClosed && batch.isEmpty
            condition.broadcast()
            condition.unlock()
            do {
                for (tile, known) in batch {
                    let key = known ?? BlobFingerprint.of(tile.data)
                    if let tally {
                        try tally.add(tile.coordinate, fingerprint: key, size: tile.data.count)
                        continue
                    }
                    if repeatsCoordinates ? try index.wasSeen(tile.coordinate) : previous == tile.coordinate {
                        local.repeated.record("tile \(tile.coordinate)", reason: "appears again")
                        try index.forget(tile.coordinate)
                    }
                    previous = tile.coordinate
                    if try !index.isNew(key, recording: tile.coordinate) {
                        local.duplicateTiles += 1
                        local.duplicateBytes += tile.data.count
                    }
                }
                if isLast, let tally {
                    let tallied = try tally.finish()
                    local.duplicateTiles = tallied.duplicateTiles
                    local.duplicateBytes = tallied.duplicateBytes
                    local.repeated = tally.repeated
                }
            } catch {
                end(counts: nil, failure: error)
                return
            }
            if isLast {
                end(counts: local, failure: nil)
                return
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    private func end(counts: Counts?, failure: (any Error)?) {
        condition.lock()
        if let counts { self.counts = counts }
        self.failure = failure
        isDone = true
        condition.broadcast()
        condition.unlock()
    }
}
