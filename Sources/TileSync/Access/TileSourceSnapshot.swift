public import Foundation

/// A view of a `TileSource` that does not change while it is used: every tile read through it
/// sees the store as it was when `TileSource.withSnapshot` began, even while a patch or a sync
/// commits (for MBTiles). Valid only inside the closure that received it; not thread-safe.
public struct TileSourceSnapshot {
    private let reader: any TileReader

    init(reader: any TileReader) {
        self.reader = reader
    }

    /// The bytes of the tile at an XYZ coordinate, or nil when the store has none there.
    /// - Throws: `TileCoordinateError` outside the zoom's grid, `TileStoreError` on read errors.
    public func tile(z: Int, x: Int, y: Int) throws -> Data? {
        try reader.tile(at: TileCoordinate(z: z, x: x, y: y))
    }

    /// The bytes of a tile, or nil when the store has none there.
    /// - Throws: `TileStoreError` when the store cannot be read or the tile is invalid.
    public func tile(at coordinate: TileCoordinate) throws -> Data? {
        try reader.tile(at: coordinate)
    }
}
