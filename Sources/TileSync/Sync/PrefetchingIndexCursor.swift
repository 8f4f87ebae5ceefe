import Foundation

/// Makes and reads another index cursor on a background thread, a bounded number of entries
/// ahead, so two stores can be listed (and an unordered one sorted) on two cores while they are
/// merged. Errors arrive in order.
///
/// The thread holds only the queue and the source, never this cursor: dropping the cursor (or
/// `stop()`) stops the thread even while it waits to hand entries over, and waits until it has
/// let go of the source, so a sync that fails mid-merge leaves no thread or open store behind.
final class PrefetchingIndexCursor: TileIndexCursor, @unchecked Sendable {
    private enum Item {
        case entry(TileIndexEntry)
        case failure(any Error)
    }

    /// Final `skipped` of the source, set by the thread before it closes the queue.
    private final class SkippedBox: @unchecked Sendable {
        private let lock = NSLock()
        private var items = SkippedItems()
        var value: SkippedItems {
            get { lock.withLock { items } }
            set { lock.withLock { items = newValue } }
        }
    }

    /// The source's factory, dropped by the thread before it finishes, so whatever it holds (a
    /// reader) is released by the time `stop()` returns.
    private final class SourceFactory: @unchecked Sendable {
        var make: ((_ shouldStop: @escaping () -> Bool) throws -> any TileIndexCursor)?
        init(_ make: @escaping (_ shouldStop: @escaping () -> Bool) throws -> any TileIndexCursor) { self.make = make }
    }

    private static let batchEntries = 2048
    /// Entries queued at most (counted as the queue's "bytes").
    private static let queuedEntries = 8 * batchEntries

    private let queue = BoundedBatchQueue<Item>(maxBytes: queuedEntries)
    private let finalSkipped = SkippedBox()
    private var taken: [Item] = []
    private var position = 0
    private var isDone = false

    /// Starts the thread, which calls `makeSource` (passing it a check that is true once this
    /// cursor is stopped, for long work such as a sort) and then lists the cursor it returns.
    init(_ makeSource: @escaping (_ shouldStop: @escaping () -> Bool) throws -> any TileIndexCursor) {
        let queue = self.queue, finalSkipped = self.finalSkipped, factory = SourceFactory(makeSource)
        let thread = Thread { Self.produce(factory, into: queue, skipped: finalSkipped) }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        stop()
    }

    var skipped: SkippedItems { finalSkipped.value }

    func next() throws -> TileIndexEntry? {
        while position == taken.count {
            guard !isDone else { return nil }
            position = 0
            guard queue.take(into: &taken) else {
                isDone = true
                return nil
            }
        }
        let item = taken[position]
        position += 1
        switch item {
        case .entry(let entry):
            return entry
        case .failure(let error):
            isDone = true
            taken.removeAll()
            position = 0
            throw error
        }
    }

    /// Stops the thread and waits until it has let go of the source.
    func stop() {
        queue.stop()
        queue.waitUntilFinished()
    }

    private static func produce(_ factory: SourceFactory, into queue: BoundedBatchQueue<Item>, skipped: SkippedBox) {
        var batch: [Item] = []
        batch.reserveCapacity(batchEntries)
        list(factory, into: queue, batch: &batch, skipped: skipped)
        factory.make = nil
        let count = batch.count
        if count > 0 { queue.put(&batch, bytes: count) }
        queue.close()
        queue.markFinished()
    }

    /// Lists the source into the queue; the batch left over (and an error) stays in `batch`.
    private static func list(_ factory: SourceFactory, into queue: BoundedBatchQueue<Item>, batch: inout [Item], skipped: SkippedBox) {
        do {
            guard let make = factory.make else { return }
            let source = try make { queue.isStopped }
            while let entry = try source.next() {
                batch.append(.entry(entry))
                if batch.count == batchEntries {
                    let count = batch.count
                    guard queue.put(&batch, bytes: count) else { return }
                }
            }
            skipped.value = source.skipped
        } catch {
            batch.append(.failure(error))
        }
    }
}
