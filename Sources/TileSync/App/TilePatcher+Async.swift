extension TilePatcher {
    /// Starts applying a patch off the cooperative pool: progress (changes made) as an
    /// `AsyncSequence`, the summary from `value`. Cancelling stops it before the commit: the
    /// store is as it was (an `s3://` store keeps what was sent; applying again completes it).
    public static func application(of patchPath: String, to store: TileStoreLocation,
                                   options: TilePatcher.ApplyOptions = TilePatcher.ApplyOptions()) -> TileOperation<Int, TilePatcher.ApplySummary> {
        TileOperation { isCancelled, report in
            var options = options
            options.isCancelled = CancellationState.either(isCancelled, options.isCancelled)
            let reported = options.progress
            options.progress = { count in
                reported?(count)
                report(count)
            }
            return try apply(patch: patchPath, to: store, options: options)
        }
    }

    /// `apply` for async callers: runs off the cooperative pool and stops at Task cancellation.
    /// - Throws: `TileStoreError` as `apply`; `.interrupted` when the task was cancelled.
    public static func apply(patch patchPath: String, to store: TileStoreLocation,
                             options: TilePatcher.ApplyOptions = TilePatcher.ApplyOptions()) async throws -> TilePatcher.ApplySummary {
        try await application(of: patchPath, to: store, options: options).value
    }

    /// `makePatch` for async callers: runs off the cooperative pool; Task cancellation stops it
    /// and leaves no patch file.
    /// - Throws: `TileStoreError` as `makePatch`; `.interrupted` when the task was cancelled.
    public static func makePatch(from base: TileStoreLocation, to target: TileStoreLocation, writingTo patchPath: String,
                                 options: TilePatcher.Options = TilePatcher.Options()) async throws -> TilePatcher.Summary {
        try await TileOperation<Int, TilePatcher.Summary> { isCancelled, _ in
            var options = options
            options.isCancelled = CancellationState.either(isCancelled, options.isCancelled)
            return try makePatch(from: base, to: target, writingTo: patchPath, options: options)
        }.value
    }

    /// `describe` for async callers, read on a Dispatch thread.
    /// - Throws: as `describe`.
    public static func describe(patch patchPath: String) async throws -> TilePatcher.Description {
        try await BlockingWork.run { try describe(patch: patchPath) }
    }
}
