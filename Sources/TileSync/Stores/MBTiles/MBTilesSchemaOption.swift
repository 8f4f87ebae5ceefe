/// `mbtiles-schema`: the table layout of an MBTiles file TileSync creates.
public enum MBTilesSchemaOption: TileStoreOptionKey {
    public typealias Value = MBTilesSchema
    public static let name = "mbtiles-schema"
}

extension TileStoreOptions {
    /// The schema of a new MBTiles file (`MBTilesSchemaOption`); nil: flat, or normalized with
    /// `deduplicate`.
    public var mbtilesSchema: MBTilesSchema? {
        get { self[MBTilesSchemaOption.self] }
        set { self[MBTilesSchemaOption.self] = newValue }
    }
}
