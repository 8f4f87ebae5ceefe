import Synchronization

extension TileSynchronizer {
    /// Starts a sync off the cooperative pool: progress as an `AsyncSequence` (the entries
    /// decided), the summary from `value`. Cancelling stops it before its commit: the
    /// destination is as it was (an `s3://` store keeps the objects already sent).
    public static func synchronization(from source: TileStoreLocation, to destination: TileStoreLocation,
                                       options: TileSynchronizer.Options = TileSynchronizer.Options()) -> TileOperation<TileSynchronizer.Progress, TileSynchronizer.Summary> {
        TileOperation { isCancelled, report in
            var options = options
            options.isCancelled = CancellationState.either(isCancelled, options.isCancelled)
            let decided = Atomic<Int>(0)
            return try sync(from: source, to: destination, options: options) { entry in
                let count = decided.add(1, ordering: .relaxed).newValue
                report(TileSynchronizer.Progress(entriesDecided: count, lastEntry: entry))
            }
        }
    }

    /// `sync` for async callers: runs off the cooperative pool and stops at Task cancellation.
    /// - Throws: `TileStoreError` as `sync`; `.interrupted` when the task was cancelled.
    public static func sync(from source: TileStoreLocation, to destination: TileStoreLocation,
                            options: TileSynchronizer.Options = TileSynchronizer.Options()) async throws -> TileSynchronizer.Summary {
        try await synchronization(from: source, to: destination, options: options).value
    }

    /// `diff` for async callers (the plan's summary, without the entries): runs off the
    /// cooperative pool and stops at Task cancellation.
    /// - Throws: `TileStoreError` as `diff`; `.interrupted` when the task was cancelled.
    public static func diff(from source: TileStoreLocation, to destination: TileStoreLocation,
                            options: TileSynchronizer.Options = TileSynchronizer.Options()) async throws -> TileSynchronizer.Summary {
        try await TileOperation<Int, TileSynchronizer.Summary> { isCancelled, _ in
            var options = options
            options.isCancelled = CancellationState.either(isCancelled, options.isCancelled)
            return try diff(from: source, to: destination, options: options)
        }.value
    }
}
