import Synchronization

/// A flag set once from any thread.
final class CancellationState: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() {
        flag.store(true, ordering: .releasing)
    }

    /// A test that is true when either is.
    static func either(_ first: @escaping @Sendable () -> Bool, _ second: @escaping @Sendable () -> Bool) -> @Sendable () -> Bool {
        { first() || second() }
    }
}
