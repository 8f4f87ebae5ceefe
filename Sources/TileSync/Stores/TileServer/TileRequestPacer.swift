import Foundation
import Synchronization

/// Spaces requests to at most `rate` per second across threads: each caller gets the next
/// free slot and sleeps until it (no burst above the rate).
final class TileRequestPacer: Sendable {
    private let interval: TimeInterval
    private let nextSlot = Mutex<TimeInterval>(0)

    /// - Parameter rate: requests per second, above 0.
    init(rate: Double) {
        interval = 1 / rate
    }

    /// Waits for this request's slot.
    func wait() {
        let now = ProcessInfo.processInfo.systemUptime
        let slot = nextSlot.withLock { next in
            let slot = max(now, next)
            next = slot + interval
            return slot
        }
        if slot > now { Thread.sleep(forTimeInterval: slot - now) }
    }
}
