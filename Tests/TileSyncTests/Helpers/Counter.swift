import Foundation

/// A thread-safe counter for `@Sendable` closures in tests.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The count now.
    var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
