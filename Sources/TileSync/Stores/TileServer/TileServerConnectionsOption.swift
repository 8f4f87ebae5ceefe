/// `connections`: Requests a tile server source keeps in flight at once (default 2).
enum TileServerConnectionsOption: TileStoreOptions.Key {
    public typealias Value = Int
    public static let name = "connections"
}

extension TileStoreOptions {
    /// Requests a tile server source keeps in flight at once (default 2). (`TileServerConnectionsOption`).
    public var tileServerConnections: Int? {
        get { self[TileServerConnectionsOption.self] }
        set { self[TileServerConnectionsOption.self] = newValue }
    }
}
