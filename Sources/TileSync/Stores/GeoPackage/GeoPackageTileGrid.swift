import Foundation

/// A tile table's tile matrix set and matrices, each placed in the web quad tree, so that rows
/// of the table map one-to-one onto XYZ coordinates and back.
///
/// A matrix fits when its SRS is Web Mercator, its tiles are square on the ground with a span of
/// a quad-tree zoom (the world's width over a power of two), and the set's origin is a tile
/// corner at that zoom. Tile sizes in pixels, zoom numbering, gaps in zoom and matrices smaller
/// than the world are all allowed. Anything else is refused by `load`, naming the SRS, the table
/// and the first matrix that does not fit: placing such tiles on z/x/y would put them in the
/// wrong place.
struct GeoPackageTileGrid: Sendable {
    /// The tile table.
    let table: String
    /// `srs_id` of the tile matrix set.
    let srsID: Int
    /// The tile matrix set's bounds, in metres.
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The matrices by the table's `zoom_level`.
    let matricesByLevel: [Int: GeoPackageTileMatrix]
    /// The matrices by quad-tree zoom.
    let matricesByZoom: [Int: GeoPackageTileMatrix]

    /// A grid of no matrices yet over the whole Web Mercator world (a table being created).
    static func webQuadTree(table: String) -> GeoPackageTileGrid {
        let half = GeoPackageSpatialReference.halfWorld
        return GeoPackageTileGrid(table: table, srsID: GeoPackageSpatialReference.webMercatorID,
                                  minX: -half, minY: -half, maxX: half, maxY: half, matricesByLevel: [:], matricesByZoom: [:])
    }

    /// True when the table's zoom_level order is the quad tree's zoom order, so that SQL's
    /// (zoom_level, tile_column, tile_row) order is (z, x, y) order.
    var levelsFollowZooms: Bool {
        let levels = matricesByLevel.values.sorted { $0.zoomLevel < $1.zoomLevel }
        return zip(levels, levels.dropFirst()).allSatisfy { $0.z < $1.z }
    }

    /// The XYZ coordinate of a row.
    /// - Throws: `.invalidTile` naming the row when its zoom_level has no matrix or it lies outside its matrix.
    func coordinate(zoomLevel: Int, column: Int, row: Int, store: String) throws(TileStoreError) -> TileCoordinate {
        guard let matrix = matricesByLevel[zoomLevel] else {
            throw TileStoreError(.invalidTile, store: store,
                                 item: "\(GeoPackageAddress.describe(table)) row (zoom_level \(zoomLevel), tile_column \(column), tile_row \(row))",
                                 message: "zoom_level \(zoomLevel) has no row in gpkg_tile_matrix")
        }
        return try matrix.coordinate(column: column, row: row, table: table, store: store)
    }

    /// SQL conditions on (zoom_level, tile_column, tile_row) for the rows a filter may want; a
    /// region or shard is narrowed to its extent here and checked row by row.
    func whereClause(_ filter: TileFilter) -> String {
        if filter.isEverything { return "" }
        var terms: [String] = []
        for z in filter.zooms {
            guard let matrix = matricesByZoom[z] else { continue }
            guard filter.isSpatial else {
                terms.append("zoom_level = \(matrix.zoomLevel)")
                continue
            }
            for range in filter.searchRanges(atZoom: z) {
                let columns = (range.columns.lowerBound - matrix.columnOffset)...(range.columns.upperBound - matrix.columnOffset)
                let rows = (range.rows.lowerBound - matrix.rowOffset)...(range.rows.upperBound - matrix.rowOffset)
                terms.append("(zoom_level = \(matrix.zoomLevel) AND tile_column BETWEEN \(columns.lowerBound) AND \(columns.upperBound)"
                    + " AND tile_row BETWEEN \(rows.lowerBound) AND \(rows.upperBound))")
            }
        }
        return terms.isEmpty ? " WHERE 0" : " WHERE " + terms.joined(separator: " OR ")
    }

    /// The matrix a new zoom gets in this set: the set's bounds cut into tiles of the zoom's
    /// span, numbered as the existing matrices number theirs (zoom_level minus z the same).
    /// - Throws: `.unsupported` when the set's bounds are not on the zoom's tile corners.
    func newMatrix(z: Int, tileSize: Int, store: String) throws(TileStoreError) -> GeoPackageTileMatrix {
        let shift = matricesByLevel.values.map { $0.zoomLevel - $0.z }.min() ?? 0
        let span = GeoPackageSpatialReference.worldWidth / Double(1 << z)
        let columns = (minX + GeoPackageSpatialReference.halfWorld) / span
        let rows = (GeoPackageSpatialReference.halfWorld - maxY) / span
        let width = (maxX - minX) / span, height = (maxY - minY) / span
        guard [columns, rows, width, height].allSatisfy({ abs($0) < Double(1 << 31) && abs($0 - $0.rounded()) < 1e-3 }), width >= 1, height >= 1,
              matricesByLevel[z + shift] == nil else {
            throw TileStoreError(.unsupported, store: store, item: GeoPackageAddress.describe(table),
                                 message: "cannot add zoom \(z): the tile matrix set's bounds are not on tile corners of that zoom")
        }
        let pixel = span / Double(tileSize)
        return GeoPackageTileMatrix(zoomLevel: z + shift, matrixWidth: Int(width.rounded()), matrixHeight: Int(height.rounded()),
                                    tileWidth: tileSize, tileHeight: tileSize, pixelXSize: pixel, pixelYSize: pixel, z: z,
                                    columnOffset: Int(columns.rounded()), rowOffset: Int(rows.rounded()))
    }

    /// This grid with one more matrix.
    func adding(_ matrix: GeoPackageTileMatrix) -> GeoPackageTileGrid {
        var byLevel = matricesByLevel, byZoom = matricesByZoom
        byLevel[matrix.zoomLevel] = matrix
        byZoom[matrix.z] = matrix
        return GeoPackageTileGrid(table: table, srsID: srsID, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                  matricesByLevel: byLevel, matricesByZoom: byZoom)
    }
}
