/// One tile in a store's index: where it is, how many bytes, their MD5 when known, and the
/// modification time when the store keeps one per tile (folders).
public struct TileIndexEntry: Hashable, Sendable {
    /// The tile (XYZ).
    public let coordinate: TileCoordinate
    /// Size of the tile's bytes.
    public let size: Int
    /// The MD5 of the bytes; nil in a `listing` where the store would have to read the tile.
    public let hash: ContentHash?
    /// Modification time in nanoseconds since 1970, for stores with one file per tile.
    public let modificationTime: Int64?

    /// An entry; `hash` and `modificationTime` when known.
    public init(coordinate: TileCoordinate, size: Int, hash: ContentHash?, modificationTime: Int64? = nil) {
        self.coordinate = coordinate
        self.size = size
        self.hash = hash
        self.modificationTime = modificationTime
    }

    /// The same entry with a hash filled in.
    public func with(hash: ContentHash) -> TileIndexEntry {
        TileIndexEntry(coordinate: coordinate, size: size, hash: hash, modificationTime: modificationTime)
    }
}
