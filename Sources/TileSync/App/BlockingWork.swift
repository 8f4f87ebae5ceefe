import Dispatch

/// Runs TileSync's blocking calls (SQLite, file and network reads) for async callers on
/// Dispatch's threads, never on the cooperative pool that Swift concurrency keeps to one thread
/// per core, so an app's tasks keep running while tiles are read.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "TileSync.BlockingWork", qos: .userInitiated, attributes: .concurrent)

    /// The result of `body`, run on a Dispatch thread.
    /// - Throws: what `body` throws.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
