/// The role of a reader that computes martin's `agg_tiles_hash` its own way (an MBTiles: one
/// ordered query, or the hash it keeps), instead of the streamed default
/// (`AggregateHashCalculator`).
protocol AggregateHashing: AnyObject {
    /// martin's `agg_tiles_hash` over every tile.
    /// - Throws: `TileStoreError` when the store cannot be read.
    func aggregateHash() throws -> ContentHash
}
