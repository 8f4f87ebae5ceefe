/// The options of an MBTiles store.
public struct MBTilesOptions: Sendable, Equatable {
    /// The table layout of a file TileSync creates (an existing file keeps its own).
    public var schema: MBTilesSchema
    /// A file TileSync creates gets an `agg_tiles_hash` (martin's aggregate MD5 of every tile).
    public var writesAggregateHash: Bool

    /// Options with a schema.
    public init(schema: MBTilesSchema = .flat, writesAggregateHash: Bool = true) {
        self.schema = schema
        self.writesAggregateHash = writesAggregateHash
    }
}
