/// One tile in a store's index: where it is, how many bytes, and their MD5.
public struct TileIndexEntry: Hashable, Sendable {
    public let coordinate: TileCoordinate
    /// Size of the tile's bytes.
    public let size: Int
    public let hash: ContentHash

    public init(coordinate: TileCoordinate, size: Int, hash: ContentHash) {
        self.coordinate = coordinate
        self.size = size
        self.hash = hash
    }
}
