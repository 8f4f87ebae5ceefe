/// `revalidate`: A sync from a tile server asks for every tile again, conditionally, fresh or not.
enum TileServerRevalidateOption: TileStoreOptions.Key {
    public typealias Value = Bool
    public static let name = "revalidate"
}

extension TileStoreOptions {
    /// A sync from a tile server asks for every tile again, conditionally, fresh or not. (`TileServerRevalidateOption`).
    public var tileServerRevalidate: Bool? {
        get { self[TileServerRevalidateOption.self] }
        set { self[TileServerRevalidateOption.self] = newValue }
    }
}
