import Foundation

/// The router, set once the port is known (the daemon answers 503 before that).
final class ServedRouterBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: ServeRouter?

    var router: ServeRouter? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
