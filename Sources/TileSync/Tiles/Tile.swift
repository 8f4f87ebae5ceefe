public import Foundation

/// One tile: its XYZ coordinate and the bytes exactly as stored.
public struct Tile: Sendable, Equatable {
    public let coordinate: TileCoordinate
    public let data: Data

    public init(coordinate: TileCoordinate, data: Data) {
        self.coordinate = coordinate
        self.data = data
    }
}
