import Foundation

/// Runs another index cursor on a background thread, a bounded number of batches ahead, so two
/// stores can be listed on two cores while they are merged. Errors arrive in order.
final class PrefetchingIndexCursor: TileIndexCursor, @unchecked Sendable {
    private enum Item {
        case entries([TileIndexEntry])
        case failure(any Error)
        case end
    }

    private static let batchSize = 2048
    private static let maxQueuedBatches = 8

    private let source: any TileIndexCursor
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var isStopped = false
    private var current: [TileIndexEntry] = []
    private var position = 0
    private var finished = false
    private var finalSkipped = SkippedItems()

    /// Starts listing `source` right away. The source must not be used by anyone else.
    init(_ source: any TileIndexCursor) {
        self.source = source
        let thread = Thread { [self] in produce() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        condition.lock()
        isStopped = true
        condition.broadcast()
        condition.unlock()
    }

    var skipped: SkippedItems {
        condition.lock()
        defer { condition.unlock() }
        return finalSkipped
    }

    func next() throws -> TileIndexEntry? {
        while position >= current.count {
            if finished { return nil }
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let item = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            switch item {
            case .entries(let batch):
                current = batch
                position = 0
            case .failure(let error):
                finished = true
                throw error
            case .end:
                finished = true
                return nil
            }
        }
        defer { position += 1 }
        return current[position]
    }

    private func produce() {
        var batch: [TileIndexEntry] = []
        batch.reserveCapacity(Self.batchSize)
        func push(_ item: Item) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while queue.count >= Self.maxQueuedBatches && !isStopped { condition.wait() }
            guard !isStopped else { return false }
            queue.append(item)
            condition.broadcast()
            return true
        }
        do {
            while let entry = try source.next() {
                batch.append(entry)
                if batch.count == Self.batchSize {
                    guard push(.entries(batch)) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { guard push(.entries(batch)) else { return } }
            condition.lock()
            finalSkipped = source.skipped
            condition.unlock()
            _ = push(.end)
        } catch {
            if !batch.isEmpty { guard push(.entries(batch)) else { return } }
            _ = push(.failure(error))
        }
    }
}
