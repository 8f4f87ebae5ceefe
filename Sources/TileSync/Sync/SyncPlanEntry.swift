extension TileSynchronizer {
    /// One line of a sync plan.
    public struct PlanEntry: Sendable, Equatable {
        /// What the sync does there.
        public let action: TileSynchronizer.Action
        /// The tile (XYZ).
        public let coordinate: TileCoordinate
        /// Bytes to write (add, replace) or to remove (delete); the tile's size when unchanged.
        public let size: Int
    }
}
