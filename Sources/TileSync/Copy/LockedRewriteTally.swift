import Foundation

/// A `TileRewriteTally` added to from the prefetching thread and read by the run.
final class LockedRewriteTally: @unchecked Sendable {
    private let lock = NSLock()
    private var tally = TileRewriteTally()

    /// The tally now.
    var value: TileRewriteTally { lock.withLock { tally } }

    func add(_ other: TileRewriteTally) {
        lock.withLock { tally.add(other) }
    }
}
