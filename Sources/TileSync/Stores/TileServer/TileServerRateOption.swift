/// `rate`: Requests per second at most to a tile server source.
enum TileServerRateOption: TileStoreOptions.Key {
    public typealias Value = Double
    public static let name = "rate"
}

extension TileStoreOptions {
    /// Requests per second at most to a tile server source. (`TileServerRateOption`).
    public var tileServerRate: Double? {
        get { self[TileServerRateOption.self] }
        set { self[TileServerRateOption.self] = newValue }
    }
}
