import Foundation

extension GeoPackageTileGrid {
    /// Reads a table's tile matrix set, its SRS and its matrices, and places each matrix in the
    /// web quad tree.
    /// - Throws: `.corrupt` when the set or its SRS row is missing, `.unsupported` naming the SRS,
    ///   the table and the first matrix that does not fit the quad tree.
    static func load(connection: SQLiteConnection, table: String, store: String) throws(TileStoreError) -> GeoPackageTileGrid {
        let item = GeoPackageAddress.describe(table)
        do {
            let set = try connection.prepare("SELECT srs_id, min_x, min_y, max_x, max_y FROM gpkg_tile_matrix_set WHERE table_name = ?1")
            try set.bind(table, at: 1)
            guard try set.step() else {
                throw TileStoreError(.corrupt, store: store, item: item, message: "has no row in gpkg_tile_matrix_set")
            }
            guard (0..<5).allSatisfy({ set.isNumber(at: Int32($0)) }), set.isInteger(at: 0) else {
                throw TileStoreError(.corrupt, store: store, item: item, message: "its gpkg_tile_matrix_set row has NULL or non-numeric values")
            }
            let srsID = set.int(at: 0)
            let bounds = (minX: set.double(at: 1), minY: set.double(at: 2), maxX: set.double(at: 3), maxY: set.double(at: 4))
            guard [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY].allSatisfy(\.isFinite), bounds.minX < bounds.maxX, bounds.minY < bounds.maxY else {
                throw TileStoreError(.corrupt, store: store, item: item,
                                     message: "gpkg_tile_matrix_set bounds (\(bounds.minX), \(bounds.minY), \(bounds.maxX), \(bounds.maxY)) are empty or not finite")
            }
            try checkWebMercator(srsID: srsID, connection: connection, item: item, store: store)
            var grid = GeoPackageTileGrid(table: table, srsID: srsID, minX: bounds.minX, minY: bounds.minY, maxX: bounds.maxX, maxY: bounds.maxY,
                                          matricesByLevel: [:], matricesByZoom: [:])
            let matrices = try connection.prepare("""
                SELECT zoom_level, matrix_width, matrix_height, tile_width, tile_height, pixel_x_size, pixel_y_size \
                FROM gpkg_tile_matrix WHERE table_name = ?1 ORDER BY zoom_level
                """)
            try matrices.bind(table, at: 1)
            while try matrices.step() {
                let matrix = try grid.place(matrices, store: store)
                if let other = grid.matricesByZoom[matrix.z] {
                    throw TileStoreError(.unsupported, store: store, item: "\(item) zoom_level \(matrix.zoomLevel)",
                                         message: "has the tile span of quad-tree zoom \(matrix.z), as zoom_level \(other.zoomLevel) has")
                }
                grid = grid.adding(matrix)
            }
            return grid
        } catch let error as SQLiteError {
            throw error.readingError(store: store, item: item)
        } catch let error as TileStoreError {
            throw error
        } catch {
            throw TileStoreError(wrapping: error, store: store)
        }
    }

    private static func checkWebMercator(srsID: Int, connection: SQLiteConnection, item: String, store: String) throws {
        let srs = try connection.prepare("SELECT organization, organization_coordsys_id, srs_name FROM gpkg_spatial_ref_sys WHERE srs_id = ?1")
        try srs.bind(srsID, at: 1)
        guard try srs.step() else {
            throw TileStoreError(.corrupt, store: store, item: item, message: "its srs_id \(srsID) has no row in gpkg_spatial_ref_sys")
        }
        let organization = srs.text(at: 0) ?? "", code = srs.int(at: 1), name = srs.text(at: 2) ?? ""
        guard GeoPackageSpatialReference.isWebMercator(organization: organization, code: code) else {
            throw TileStoreError(.unsupported, store: store, item: item,
                                 message: "uses SRS \(srsID) (\(organization):\(code) \(name)), not Web Mercator (EPSG:3857), whose quad tree z/x/y means; its tiles would land in the wrong places",
                                 hint: "make a Web Mercator copy first: gdal_translate -of GPKG -co TILING_SCHEME=GoogleMapsCompatible")
        }
    }

    /// The matrix of the statement's current gpkg_tile_matrix row, placed in the quad tree.
    private func place(_ row: SQLiteStatement, store: String) throws(TileStoreError) -> GeoPackageTileMatrix {
        let zoomLevel = row.text(at: 0) ?? "NULL"
        let item = "\(GeoPackageAddress.describe(table)) gpkg_tile_matrix zoom_level \(zoomLevel)"
        func refuse(_ message: String) -> TileStoreError {
            TileStoreError(.unsupported, store: store, item: item, message: message + "; it does not fit the web quad tree (EPSG:3857)")
        }
        guard (0..<5).allSatisfy({ row.isInteger(at: Int32($0)) }), row.isNumber(at: 5), row.isNumber(at: 6) else {
            throw TileStoreError(.corrupt, store: store, item: item, message: "has NULL or non-numeric sizes")
        }
        let width = row.int(at: 1), height = row.int(at: 2), tileWidth = row.int(at: 3), tileHeight = row.int(at: 4)
        let pixelX = row.double(at: 5), pixelY = row.double(at: 6)
        let limit = 1 << 31
        guard (1...limit).contains(width), (1...limit).contains(height), (1...65_536).contains(tileWidth), (1...65_536).contains(tileHeight),
              pixelX.isFinite, pixelY.isFinite, pixelX > 0, pixelY > 0 else {
            throw TileStoreError(.corrupt, store: store, item: item,
                                 message: "sizes out of range (matrix \(width) x \(height), tiles \(tileWidth) x \(tileHeight) px, pixels \(pixelX) x \(pixelY))")
        }
        guard (-(1 << 62)...(1 << 62)).contains(row.int(at: 0)) else {
            throw TileStoreError(.corrupt, store: store, item: item, message: "zoom_level is out of range")
        }
        let spanX = Double(tileWidth) * pixelX, spanY = Double(tileHeight) * pixelY
        guard abs(spanX - spanY) <= 1e-6 * spanX else {
            throw refuse("its tiles are \(spanX) by \(spanY) metres, not square")
        }
        let ratio = GeoPackageSpatialReference.worldWidth / spanX
        let z = ratio.isFinite && ratio >= 0.5 && ratio < 2e9 ? Int(log2(ratio).rounded()) : -1
        guard (0...TileCoordinate.maxZoom).contains(z), abs(ratio / Double(1 << z) - 1) < 1e-6 else {
            throw refuse("a tile spans \(spanX) metres (tile_width \(tileWidth) x pixel_x_size \(pixelX)), which is no zoom's tile span")
        }
        let span = GeoPackageSpatialReference.worldWidth / Double(1 << z)
        let columns = (minX + GeoPackageSpatialReference.halfWorld) / span, rows = (GeoPackageSpatialReference.halfWorld - maxY) / span
        guard abs(columns) < Double(1 << 31), abs(rows) < Double(1 << 31),
              abs(columns - columns.rounded()) < 1e-3, abs(rows - rows.rounded()) < 1e-3 else {
            throw refuse("the tile matrix set's corner (\(minX), \(maxY)) is not a tile corner of zoom \(z)")
        }
        return GeoPackageTileMatrix(zoomLevel: row.int(at: 0), matrixWidth: width, matrixHeight: height, tileWidth: tileWidth,
                                    tileHeight: tileHeight, pixelXSize: pixelX, pixelYSize: pixelY, z: z,
                                    columnOffset: Int(columns.rounded()), rowOffset: Int(rows.rounded()))
    }
}
