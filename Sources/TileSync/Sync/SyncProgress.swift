extension TileSynchronizer {
    /// How far a sync (or diff) is: the coordinates decided so far and the last one.
    public struct Progress: Sendable {
        /// Plan entries decided so far (added, replaced, deleted, kept).
        public let entriesDecided: Int
        /// The last entry decided.
        public let lastEntry: TileSynchronizer.PlanEntry
    }
}
