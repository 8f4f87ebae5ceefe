import Foundation

/// A count that threads add to behind a lock.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The count now.
    var value: Int { lock.withLock { count } }

    /// Adds `amount`.
    func add(_ amount: Int) {
        guard amount != 0 else { return }
        lock.withLock { count += amount }
    }
}
