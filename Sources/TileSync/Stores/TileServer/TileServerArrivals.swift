import Foundation
import Synchronization

/// Answers of a tile server read as they arrive, for the cursor that waits for them.
final class TileServerArrivals: Sendable {
    private let answers = Mutex<[(TileCoordinate, Result<TileServerAnswer, HTTPError>)]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func add(_ coordinate: TileCoordinate, _ result: Result<TileServerAnswer, HTTPError>) {
        answers.withLock { $0.append((coordinate, result)) }
        arrived.signal()
    }

    /// The next answer, waiting for it (until `deadline` when given: nil after it).
    func next(before deadline: DispatchTime = .distantFuture) -> (TileCoordinate, Result<TileServerAnswer, HTTPError>)? {
        guard arrived.wait(timeout: deadline) == .success else { return nil }
        return answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
