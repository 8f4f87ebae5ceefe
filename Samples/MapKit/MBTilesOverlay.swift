#if canImport(MapKit)
import Foundation
import MapKit
import TileSync

/// An `MKTileOverlay` that draws the tiles of an MBTiles file (or a z/x/y folder, or a tar).
///
/// ```swift
/// let overlay = try MBTilesOverlay(path: Bundle.main.path(forResource: "world", ofType: "mbtiles")!)
/// mapView.addOverlay(overlay, level: .aboveLabels)
/// // in mapView(_:rendererFor:): return MKTileOverlayRenderer(tileOverlay: overlay)
/// ```
///
/// MapKit asks for tiles in XYZ (`MKTileOverlayPath.y` counts from the north); TileSync flips
/// them to the MBTiles TMS `tile_row` itself. Each tile loads in a task through TileSync's async
/// API (`TileSource.loadTile`, read off the cooperative pool); reads from several map loaders at
/// once are safe.
final class MBTilesOverlay: MKTileOverlay {
    private let loader: MBTilesTileLoader

    /// - Throws: `TileStoreError` when the file is missing or not a tile store.
    init(path: String) throws {
        loader = try MBTilesTileLoader(path: path)
        super.init(urlTemplate: nil)
        minimumZ = loader.zooms.lowerBound
        maximumZ = loader.zooms.upperBound
        canReplaceMapContent = false
        tileSize = CGSize(width: 256, height: 256)
    }

    override func loadTile(at path: MKTileOverlayPath, result: @escaping (Data?, (any Error)?) -> Void) {
        let request = MBTilesTileLoader.Request(x: path.x, y: path.y, z: path.z)
        Task { [loader] in
            do {
                result(try await loader.loadData(for: request), nil)
            } catch {
                result(nil, error)
            }
        }
    }
}
#endif
