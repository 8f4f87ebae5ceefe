/// `streams`: Requests a tile server source keeps in flight on one HTTP/2 connection (default 32).
enum TileServerStreamsOption: TileStoreOptions.Key {
    public typealias Value = Int
    public static let name = "streams"
}

extension TileStoreOptions {
    /// Requests a tile server source keeps in flight on one HTTP/2 connection (default 32; the
    /// server's SETTINGS_MAX_CONCURRENT_STREAMS caps it). (`TileServerStreamsOption`).
    public var tileServerStreams: Int? {
        get { self[TileServerStreamsOption.self] }
        set { self[TileServerStreamsOption.self] = newValue }
    }
}
