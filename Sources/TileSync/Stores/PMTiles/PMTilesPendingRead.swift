import Dispatch
import Foundation
import Synchronization

/// Ranges being read in the background: each arrives on its own, `wait()` returns them all in
/// order or throws the first failure.
final class PMTilesPendingRead: Sendable {
    private let results: Mutex<[Result<Data, TileStoreError>?]>
    private let done = DispatchSemaphore(value: 0)
    private let count: Int
    private let store: String

    /// A read of `count` ranges of the archive `store`.
    init(count: Int, store: String) {
        self.count = count
        self.store = store
        results = Mutex(Array(repeating: nil, count: count))
    }

    /// A read whose bytes are already at hand (a local file).
    convenience init(completed: Result<[Data], TileStoreError>, store: String) {
        switch completed {
        case .success(let parts):
            self.init(count: parts.count, store: store)
            for (index, part) in parts.enumerated() { finish(index, .success(part)) }
        case .failure(let error):
            self.init(count: 1, store: store)
            finish(0, .failure(error))
        }
    }

    /// Hands over range `index`'s bytes or failure (once per index).
    func finish(_ index: Int, _ result: Result<Data, TileStoreError>) {
        results.withLock { $0[index] = result }
        done.signal()
    }

    /// Waits for every range.
    /// - Throws: the first range's failure, in range order.
    func wait() throws(TileStoreError) -> [Data] {
        for _ in 0..<count { done.wait() }
        let all = results.withLock { $0 }
        var parts: [Data] = []
        parts.reserveCapacity(count)
        for result in all {
            switch result {
            case .success(let data): parts.append(data)
            case .failure(let error): throw error
            case nil: throw TileStoreError(.io, store: store, message: "a read did not finish")
            }
        }
        return parts
    }
}
