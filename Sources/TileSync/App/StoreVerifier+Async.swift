extension StoreVerifier {
    /// Starts a verification off the cooperative pool: progress (tiles checked) as an
    /// `AsyncSequence`, the report from `value`; cancelling stops it (nothing is fixed then).
    public static func verification(of location: TileStoreLocation, fix: Bool = false, deep: Bool = false,
                                    limits: TileAmountLimits = TileAmountLimits()) -> TileOperation<Int, StoreVerifier.Report> {
        TileOperation { isCancelled, report in
            try verify(location, fix: fix, deep: deep, limits: limits, progress: report, isCancelled: isCancelled)
        }
    }

    /// `verify` for async callers: runs off the cooperative pool and stops at Task cancellation.
    /// - Throws: `TileStoreError` as `verify`; `.interrupted` when the task was cancelled.
    public static func verify(_ location: TileStoreLocation, fix: Bool = false, deep: Bool = false,
                              limits: TileAmountLimits = TileAmountLimits()) async throws -> StoreVerifier.Report {
        try await verification(of: location, fix: fix, deep: deep, limits: limits).value
    }
}
