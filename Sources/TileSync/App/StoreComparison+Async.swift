extension StoreComparison {
    /// `compare` for async callers, run on a Dispatch thread.
    /// - Throws: as `compare`.
    public static func compare(_ first: TileStoreLocation, _ second: TileStoreLocation, filter: TileFilter = .all,
                               limits: TileAmountLimits = TileAmountLimits()) async throws -> StoreComparison {
        try await BlockingWork.run { try compare(first, second, filter: filter, limits: limits) }
    }
}
