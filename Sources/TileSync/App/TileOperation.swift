import Synchronization

/// A conversion, sync, patch or verification running off the cooperative pool, for async
/// callers: its `progress` is an `AsyncSequence` of the latest progress (a slow reader misses
/// intermediate values, never the end), and `value` is the outcome. Cancelling the task that
/// awaits `value`, or calling `cancel()`, stops the run where it polls for cancellation; the
/// destination is then left as it was (an object store changed object by object keeps what
/// was sent, see `TileUpdater.commitsAtomically`) and `value` throws `TileStoreError`
/// `.interrupted`.
public final class TileOperation<Progress: Sendable, Outcome: Sendable>: Sendable {
    /// The run's progress, newest first; it ends when the run ends.
    public let progress: AsyncStream<Progress>
    private let cancelled: CancellationState
    private let task: Task<Outcome, any Error>

    /// Starts `work` at once on a Dispatch thread.
    /// - Parameter work: the blocking run, given a cancellation test to poll and a progress sink.
    init(_ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool,
                                     _ report: @escaping @Sendable (Progress) -> Void) throws -> Outcome) {
        let (stream, continuation) = AsyncStream.makeStream(of: Progress.self, bufferingPolicy: .bufferingNewest(1))
        progress = stream
        let cancelled = CancellationState()
        self.cancelled = cancelled
        task = Task {
            try await BlockingWork.run {
                defer { continuation.finish() }
                return try work({ cancelled.isSet }, { continuation.yield($0) })
            }
        }
    }

    /// The outcome, once the run ends; cancelling the awaiting task cancels the run.
    /// - Throws: the run's error (`TileStoreError`, `.interrupted` when cancelled).
    public var value: Outcome {
        get async throws {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                cancelled.set()
            }
        }
    }

    /// Asks the run to stop at its next poll.
    public func cancel() {
        cancelled.set()
    }

    /// True once cancellation was asked for.
    public var isCancelled: Bool { cancelled.isSet }
}
