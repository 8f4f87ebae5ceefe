/// `skip-agg-tiles-hash`: a new MBTiles gets no `agg_tiles_hash` metadata (martin's option of
/// the same name): one MD5 pass over every tile fewer, at the cost of `mbtiles validate` and
/// `tilesync verify` having no aggregate hash to check (`verify --fix` adds it later).
enum MBTilesSkipAggregateHashOption: TileStoreOptions.Key {
    public typealias Value = Bool
    public static let name = "skip-agg-tiles-hash"
}

extension TileStoreOptions {
    /// A new MBTiles gets no `agg_tiles_hash` (`MBTilesSkipAggregateHashOption`).
    public var mbtilesSkipsAggregateHash: Bool? {
        get { self[MBTilesSkipAggregateHashOption.self] }
        set { self[MBTilesSkipAggregateHashOption.self] = newValue }
    }
}

extension MBTilesSkipAggregateHashOption {
    /// `--skip-agg-tiles-hash`, offered for an MBTiles a conversion creates.
    public static let commandLineOption = TileStoreOptions.CommandLineOption(
        name: name, placeholder: nil,
        help: "Write no agg_tiles_hash into a new MBTiles (as martin's option):\none MD5 pass over every tile fewer; `verify --fix` adds it later.",
        uses: [.create], recipients: .storeWritten) { _, options throws(TileStoreOptions.ValueError) in
        options.mbtilesSkipsAggregateHash = true
    }
}
