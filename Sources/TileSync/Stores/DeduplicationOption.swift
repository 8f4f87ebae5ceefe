/// `dedup`: store each distinct blob once (hard links in folders and tars, the normalized
/// schema in MBTiles).
public enum DeduplicationOption: TileStoreOptionKey {
    public typealias Value = Bool
    public static let name = "dedup"
}

extension TileStoreOptions {
    /// Store each distinct blob once, the way the kind can (`DeduplicationOption`).
    public var deduplicate: Bool? {
        get { self[DeduplicationOption.self] }
        set { self[DeduplicationOption.self] = newValue }
    }
}
