import Foundation
import TileSync

/// The part of the MapKit sample that has nothing to do with MapKit: turning the tile path a map
/// view asks for into tile bytes from an MBTiles file (or folder, or tar). Compiled and tested on
/// Linux too.
struct MBTilesTileLoader: Sendable {
    /// A tile request as `MKTileOverlayPath` gives it: XYZ (row 0 at the north).
    struct Request: Sendable, Equatable {
        var x: Int
        var y: Int
        var z: Int

        init(x: Int, y: Int, z: Int) {
            self.x = x
            self.y = y
            self.z = z
        }
    }

    let source: TileSource
    /// Zoom levels the store covers, from its metadata (0...30 when it does not say).
    let zooms: ClosedRange<Int>

    /// Opens the store. Opening an MBTiles file reads its schema only.
    /// - Throws: `TileStoreError` when it is missing or not a tile store.
    init(path: String) throws {
        source = try TileSource(path: path)
        let low = source.metadata.minZoom ?? 0
        let high = max(low, source.metadata.maxZoom ?? TileCoordinate.maxZoom)
        zooms = low...high
    }

    /// The tile's bytes; nil outside the store's zooms or grid, or where it has no tile (a map
    /// view then draws nothing there).
    /// - Throws: `TileStoreError` when the store cannot be read.
    func data(for request: Request) throws -> Data? {
        guard zooms.contains(request.z), let coordinate = try? TileCoordinate(z: request.z, x: request.x, y: request.y) else {
            return nil
        }
        return try source.tile(at: coordinate)
    }

    /// `data(for:)` for async callers: the read runs off the cooperative pool
    /// (`TileSource.loadTile`).
    /// - Throws: `TileStoreError` when the store cannot be read.
    func loadData(for request: Request) async throws -> Data? {
        guard zooms.contains(request.z), let coordinate = try? TileCoordinate(z: request.z, x: request.x, y: request.y) else {
            return nil
        }
        return try await source.loadTile(at: coordinate)
    }
}
