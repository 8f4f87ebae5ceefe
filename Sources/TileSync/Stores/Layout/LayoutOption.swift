/// `layout`: the path template of a store that keeps a tile per file or entry (folders, tars).
public enum LayoutOption: TileStoreOptionKey {
    public typealias Value = PathTemplate
    public static let name = "layout"
}

extension TileStoreOptions {
    /// Where each tile lives in a folder or archive (`LayoutOption`); nil: from the store's
    /// metadata, else `{z}/{x}/{y}.{ext}`.
    public var layout: PathTemplate? {
        get { self[LayoutOption.self] }
        set { self[LayoutOption.self] = newValue }
    }
}
