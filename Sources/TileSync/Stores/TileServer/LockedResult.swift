import Synchronization

/// One result handed from a completion handler to the thread waiting for it.
final class LockedResult: Sendable {
    private let value = Mutex<Result<TileServerAnswer, HTTPError>?>(nil)

    func set(_ result: Result<TileServerAnswer, HTTPError>) { value.withLock { $0 = result } }

    func get() -> Result<TileServerAnswer, HTTPError>? { value.withLock { $0 } }
}
