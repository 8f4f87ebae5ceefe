extension TileStoreOptions {
    /// `layout`: the path template of a store that keeps a tile per file or entry (folders, tars).
    public enum Layout: TileStoreOptions.Key {
        public typealias Value = PathTemplate
        public static let name = "layout"
    }
}

extension TileStoreOptions {
    /// Where each tile lives in a folder or archive (`TileStoreOptions.Layout`); nil: from the store's
    /// metadata, else `{z}/{x}/{y}.{ext}`.
    public var layout: PathTemplate? {
        get { self[TileStoreOptions.Layout.self] }
        set { self[TileStoreOptions.Layout.self] = newValue }
    }
}
