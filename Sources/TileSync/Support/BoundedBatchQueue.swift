import Foundation

/// Hands items from one thread to another in batches, bounded in bytes: `put` waits while the
/// queue holds `maxBytes`, `take` waits while it is empty; one lock and one wake-up per batch.
/// The worker thread on either side marks its end with `markFinished()`, which the other side
/// can wait for.
final class BoundedBatchQueue<Item>: @unchecked Sendable {
    private let maxBytes: Int
    private let condition = NSCondition()
    private var items: [Item] = []
    private var bytes = 0
    private var isClosed = false
    private var stopped = false
    private var isFinished = false

    /// - Parameter maxBytes: `put` waits while this many bytes are queued.
    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// Moves `batch` (left empty, capacity kept) to the queue; waits while the queue is full.
    /// - Returns: false once the consumer stopped (`stop()`); the batch is then dropped.
    @discardableResult
    func put(_ batch: inout [Item], bytes batchBytes: Int) -> Bool {
        defer { batch.removeAll(keepingCapacity: true) }
        condition.lock()
        defer { condition.unlock() }
        while bytes >= maxBytes && !stopped { condition.wait() }
        guard !stopped else { return false }
        items.append(contentsOf: batch)
        bytes += batchBytes
        condition.broadcast()
        return true
    }

    /// The producer puts nothing more; `take` returns false once the queue is drained.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Swaps everything queued into `batch` (emptied first); waits while nothing is queued.
    /// - Returns: false when the queue is closed (or stopped) and drained.
    func take(into batch: inout [Item]) -> Bool {
        batch.removeAll(keepingCapacity: true)
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !isClosed && !stopped { condition.wait() }
        swap(&batch, &items)
        bytes = 0
        condition.broadcast()
        return !batch.isEmpty
    }

    /// The consumer takes nothing more: a producer waiting in `put` returns false at once.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// True once the consumer stopped: a producer doing long work between `put`s can give up.
    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Marks the end of the worker thread's work (call once, as its last step).
    func markFinished() {
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `markFinished()` was called.
    func waitUntilFinished() {
        condition.lock()
        while !isFinished { condition.wait() }
        condition.unlock()
    }
}
