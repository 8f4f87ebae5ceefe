public import Foundation

/// One tile: its XYZ coordinate and the bytes exactly as stored.
public struct Tile: Sendable, Equatable {
    /// Where the tile is (XYZ).
    public let coordinate: TileCoordinate
    /// The stored bytes (compressed or not, as the store has them).
    public let data: Data
    /// The modification time of the file the tile was read from, in ns since 1970 (folders);
    /// nil for stores without per-tile times. Not part of equality: two tiles are equal when
    /// their coordinates and bytes are.
    public let modificationTime: Int64?

    /// A tile from its coordinate and bytes (and the time of its file, when it has one).
    public init(coordinate: TileCoordinate, data: Data, modificationTime: Int64? = nil) {
        self.coordinate = coordinate
        self.data = data
        self.modificationTime = modificationTime
    }

    public static func == (lhs: Tile, rhs: Tile) -> Bool {
        lhs.coordinate == rhs.coordinate && lhs.data == rhs.data
    }
}
