/// The options of an MBTiles store.
struct MBTilesOptions: Sendable, Equatable {
    /// The table layout of a file TileSync creates (an existing file keeps its own).
    var schema: MBTilesSchema
    /// A file TileSync creates gets an `agg_tiles_hash` (martin's aggregate MD5 of every tile).
    var writesAggregateHash: Bool

    /// Options with a schema.
    init(schema: MBTilesSchema = .flat, writesAggregateHash: Bool = true) {
        self.schema = schema
        self.writesAggregateHash = writesAggregateHash
    }
}
