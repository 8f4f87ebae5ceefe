/// The containers TileSync reads and writes.
public enum TileStoreKind: String, Sendable, CaseIterable {
    /// An MBTiles (SQLite) file.
    case mbtiles
    /// A folder tree of tile files at a path template.
    case directory = "dir"
    /// A tar archive, optionally compressed.
    case tar

    /// A human name for messages and `info`.
    public var displayName: String {
        switch self {
        case .mbtiles: "MBTiles"
        case .directory: "folder"
        case .tar: "tar archive"
        }
    }
}
