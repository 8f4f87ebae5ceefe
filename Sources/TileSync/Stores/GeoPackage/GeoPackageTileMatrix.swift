/// One row of `gpkg_tile_matrix` and where its tiles sit in the web quad tree: the quad-tree
/// zoom whose tile span it has, and the columns and rows its origin is shifted by.
struct GeoPackageTileMatrix: Sendable, Equatable {
    /// The table's own `zoom_level` (any integer the writer chose).
    let zoomLevel: Int
    /// `matrix_width` and `matrix_height`, in tiles.
    let matrixWidth: Int
    let matrixHeight: Int
    /// `tile_width` and `tile_height`, in pixels.
    let tileWidth: Int
    let tileHeight: Int
    /// `pixel_x_size` and `pixel_y_size`, in metres of EPSG:3857.
    let pixelXSize: Double
    let pixelYSize: Double
    /// The quad-tree zoom (XYZ `z`).
    let z: Int
    /// The quad-tree column of the matrix's column 0, and row of its row 0.
    let columnOffset: Int
    let rowOffset: Int

    /// A matrix of the web quad tree at zoom `z` covering the whole world, `tileSize` pixels a side.
    static func webQuadTree(z: Int, zoomLevel: Int, tileSize: Int) -> GeoPackageTileMatrix {
        let pixel = GeoPackageSpatialReference.worldWidth / Double(1 << z) / Double(tileSize)
        return GeoPackageTileMatrix(zoomLevel: zoomLevel, matrixWidth: 1 << z, matrixHeight: 1 << z, tileWidth: tileSize,
                                    tileHeight: tileSize, pixelXSize: pixel, pixelYSize: pixel, z: z, columnOffset: 0, rowOffset: 0)
    }

    /// The quad-tree coordinate of a tile row.
    /// - Throws: `.invalidTile` naming the table and row when it lies outside the matrix.
    func coordinate(column: Int, row: Int, table: String, store: String) throws(TileStoreError) -> TileCoordinate {
        let item = "\(GeoPackageAddress.describe(table)) row (zoom_level \(zoomLevel), tile_column \(column), tile_row \(row))"
        guard (0..<matrixWidth).contains(column), (0..<matrixHeight).contains(row) else {
            throw TileStoreError(.invalidTile, store: store, item: item,
                                 message: "outside the tile matrix (\(matrixWidth) x \(matrixHeight) tiles at zoom_level \(zoomLevel))")
        }
        do {
            return try TileCoordinate(z: z, x: column + columnOffset, y: row + rowOffset)
        } catch {
            throw TileStoreError(.invalidTile, store: store, item: item, message: "outside the web quad tree at zoom \(z): \(error)")
        }
    }

    /// The table's (column, row) of a quad-tree coordinate at this matrix's zoom, nil when outside it.
    func cell(of coordinate: TileCoordinate) -> (column: Int, row: Int)? {
        let column = coordinate.x - columnOffset, row = coordinate.y - rowOffset
        guard coordinate.z == z, (0..<matrixWidth).contains(column), (0..<matrixHeight).contains(row) else { return nil }
        return (column, row)
    }
}
