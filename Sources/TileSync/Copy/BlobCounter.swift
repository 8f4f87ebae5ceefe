import Foundation

/// Fingerprints tiles (`BlobFingerprint`) and counts distinct blobs and repeated
/// coordinates on a second thread while the converter writes, for destinations that do not need
/// the answer before writing (those that deduplicate ask `DedupIndex` directly). Ordered sources
/// are tallied by sorting (`FingerprintTally`); sources that may repeat a coordinate anywhere go
/// through the temporary index, which remembers coordinates. The queue is bounded in bytes
/// (`BoundedBatchQueue`), so memory stays flat.
final class BlobCounter: @unchecked Sendable {
    private static let handOverBytes = 256 << 10
    private static let handOverTiles = 256
    /// Tiles added on the caller's thread, not yet handed over.
    private var pending: [(Tile, ContentHash?)] = []
    private var pendingBytes = 0

    private let index: DedupIndex
    private let repeatsCoordinates: Bool
    private let queue = BoundedBatchQueue<(Tile, ContentHash?)>(maxBytes: 1 << 20)
    private var counts = BlobCounts()
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
        queue.put(&pending, bytes: pendingBytes)
        pendingBytes = 0
    }

    /// Waits for the queue to drain and returns the counts.
    /// - Throws: the first error of the temporary index.
    func finish() throws -> BlobCounts {
        handOver()
        queue.close()
        queue.waitUntilFinished()
        if let failure { throw failure }
        return counts
    }

    private func work() {
        defer { queue.markFinished() }
        var previous: TileCoordinate?
        var local = BlobCounts()
        let tally = repeatsCoordinates ? nil : FingerprintTally()
        var batch: [(Tile, ContentHash?)] = []
        do {
            while queue.take(into: &batch) {
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
            }
            if let tally {
                let tallied = try tally.finish()
                local.duplicateTiles = tallied.duplicateTiles
                local.duplicateBytes = tallied.duplicateBytes
                local.repeated = tally.repeated
            }
            counts = local
        } catch {
            failure = error
            queue.stop()
        }
    }
}
