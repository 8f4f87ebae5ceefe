extension TilePatcher {
    /// Starts applying a patch off the cooperative pool: progress (changes made) as an
    /// `AsyncSequence`, the summary from `value`. Cancelling stops it before the commit: the
    /// store is as it was (an `s3://` store keeps what was sent; applying again completes it).
    public static func application(of patchPath: String, to store: TileStoreLocation,
                                   options: PatchApplyOptions = PatchApplyOptions()) -> TileOperation<Int, PatchApplySummary> {
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
                             options: PatchApplyOptions = PatchApplyOptions()) async throws -> PatchApplySummary {
        try await application(of: patchPath, to: store, options: options).value
    }
}
