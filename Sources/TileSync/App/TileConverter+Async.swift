extension TileConverter {
    /// Starts a conversion off the cooperative pool: progress as an `AsyncSequence`, the summary
    /// from `value`. Cancelling the task that awaits it (or `cancel()`) stops the copy and leaves
    /// no destination (or the old one, with `overwrite`).
    public static func conversion(from source: TileStoreLocation, to destination: TileStoreLocation,
                                  options: TileConverter.Options = TileConverter.Options()) -> TileOperation<TileConverter.Progress, TileConverter.Summary> {
        TileOperation { isCancelled, report in
            var options = options
            options.isCancelled = CancellationState.either(isCancelled, options.isCancelled)
            return try convert(from: source, to: destination, options: options, progress: report)
        }
    }

    /// `convert` for async callers: runs off the cooperative pool and stops at Task cancellation,
    /// leaving the destination as it was.
    /// - Throws: `TileStoreError` as `convert`; `.interrupted` when the task was cancelled.
    public static func convert(from source: TileStoreLocation, to destination: TileStoreLocation,
                               options: TileConverter.Options = TileConverter.Options()) async throws -> TileConverter.Summary {
        try await conversion(from: source, to: destination, options: options).value
    }
}
