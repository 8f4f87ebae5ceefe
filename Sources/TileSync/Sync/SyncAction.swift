extension TileSynchronizer {
    /// What a sync does at one coordinate.
    public enum Action: String, Sendable {
        /// The source has a tile the destination lacks.
        case add
        /// Both have the tile, with different bytes.
        case replace
        /// Only the destination has the tile (removed with `--delete`).
        case delete
        /// Both have the same bytes.
        case unchanged
    }
}
