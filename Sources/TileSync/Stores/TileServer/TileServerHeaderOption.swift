/// `header`: Extra request headers for a tile server source, one `Name: value` per line (API keys; never printed).
enum TileServerHeaderOption: TileStoreOptions.Key {
    public typealias Value = String
    public static let name = "header"
}

extension TileStoreOptions {
    /// Extra request headers for a tile server source, one `Name: value` per line (API keys; never printed). (`TileServerHeaderOption`).
    public var tileServerHeader: String? {
        get { self[TileServerHeaderOption.self] }
        set { self[TileServerHeaderOption.self] = newValue }
    }
}
