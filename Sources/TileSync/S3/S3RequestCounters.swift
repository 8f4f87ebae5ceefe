import Synchronization

/// Requests made in this process, by endpoint and operation (`GET`, `PUT`, `LIST`, `DELETE`,
/// ...), each counted once however often it was tried, and the retries under `retry`: what a
/// run cost, for summaries and tests (a no-op sync sends no PUT).
final class S3RequestCounters: Sendable {
    /// The counters of this process.
    static let shared = S3RequestCounters()

    /// The name retries are counted under.
    static let retry = "retry"

    private let counts = Mutex<[String: [String: Int]]>([:])

    func count(_ operation: String, endpoint: String) {
        counts.withLock { $0[endpoint, default: [:]][operation, default: 0] += 1 }
    }

    /// Requests sent to an endpoint (`http://127.0.0.1:9000`), by operation.
    func counts(endpoint: String) -> [String: Int] {
        counts.withLock { $0[endpoint] ?? [:] }
    }
}
