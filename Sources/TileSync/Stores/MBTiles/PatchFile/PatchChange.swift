public import Foundation

/// One row of a patch: the tile to put at a coordinate, or nil data for a tile to delete.
public struct PatchChange: Sendable, Equatable {
    /// The tile's coordinate (XYZ).
    public let coordinate: TileCoordinate
    /// The new bytes, or nil when the tile is deleted.
    public let data: Data?

    /// A change at a coordinate.
    public init(coordinate: TileCoordinate, data: Data?) {
        self.coordinate = coordinate
        self.data = data
    }
}
