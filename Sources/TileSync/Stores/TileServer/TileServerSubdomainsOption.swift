/// `subdomains`: What `{s}` of a tile URL template takes: `abc` (one letter each) or `a,b,c`.
enum TileServerSubdomainsOption: TileStoreOptions.Key {
    public typealias Value = String
    public static let name = "subdomains"
}

extension TileStoreOptions {
    /// What `{s}` of a tile URL template takes: `abc` (one letter each) or `a,b,c`. (`TileServerSubdomainsOption`).
    public var tileServerSubdomains: String? {
        get { self[TileServerSubdomainsOption.self] }
        set { self[TileServerSubdomainsOption.self] = newValue }
    }
}
