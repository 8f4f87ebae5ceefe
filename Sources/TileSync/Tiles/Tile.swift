public import Foundation

/// One tile: its XYZ coordinate and the bytes exactly as stored.
public struct Tile: Sendable, Equatable {
    /// Where the tile is (XYZ).
    public let coordinate: TileCoordinate
    /// The stored bytes (compressed or not, as the store has them).
    public let data: Data

    /// A tile from its coordinate and bytes.
    public init(coordinate: TileCoordinate, data: Data) {
        self.coordinate = coordinate
        self.data = data
    }
}
