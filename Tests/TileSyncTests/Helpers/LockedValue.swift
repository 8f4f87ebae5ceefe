import Foundation

/// A value behind a lock, for tests that hand values between threads.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
