/// `mbtiles-schema`: the table layout of an MBTiles file TileSync creates.
enum MBTilesSchemaOption: TileStoreOptions.Key {
    public typealias Value = MBTilesSchema
    public static let name = "mbtiles-schema"
}

extension TileStoreOptions {
    /// The schema of a new MBTiles file (`MBTilesSchemaOption`); nil: flat, or normalized with
    /// `deduplicate`.
    var mbtilesSchema: MBTilesSchema? {
        get { self[MBTilesSchemaOption.self] }
        set { self[MBTilesSchemaOption.self] = newValue }
    }
}

extension MBTilesSchemaOption {
    /// `--mbtiles-schema`, offered for an MBTiles a command creates.
    public static let commandLineOption = TileStoreOptions.CommandLineOption(
        name: name, placeholder: MBTilesSchema.allCases.map(\.rawValue).joined(separator: "|"),
        help: "Table layout of an MBTiles destination (default flat).\nnormalized stores each distinct blob once; flat-with-hash keeps MD5s.",
        uses: [.create, .update], recipients: .storeWritten) { value, options throws(TileStoreOptions.ValueError) in
        guard let schema = MBTilesSchema(rawValue: value) else {
            let names = MBTilesSchema.allCases.map(\.rawValue)
            throw TileStoreOptions.ValueError("must be \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""), not '\(value)'")
        }
        options.mbtilesSchema = schema
    }
}
