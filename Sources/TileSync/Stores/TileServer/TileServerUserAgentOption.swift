/// `user-agent`: Text added to the User-Agent sent to a tile server (contact details).
enum TileServerUserAgentOption: TileStoreOptions.Key {
    public typealias Value = String
    public static let name = "user-agent"
}

extension TileStoreOptions {
    /// Text added to the User-Agent sent to a tile server (contact details). (`TileServerUserAgentOption`).
    public var tileServerUserAgent: String? {
        get { self[TileServerUserAgentOption.self] }
        set { self[TileServerUserAgentOption.self] = newValue }
    }
}
