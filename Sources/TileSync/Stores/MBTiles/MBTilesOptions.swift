/// The options of an MBTiles store.
public struct MBTilesOptions: Sendable, Equatable {
    /// The table layout of a file TileSync creates (an existing file keeps its own).
    public var schema: MBTilesSchema

    /// Options with a schema.
    public init(schema: MBTilesSchema = .flat) {
        self.schema = schema
    }
}
