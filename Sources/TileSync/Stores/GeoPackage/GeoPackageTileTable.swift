import Foundation

/// One tile table of a GeoPackage being written or changed inside the caller's transaction:
/// created with its `gpkg_contents` and `gpkg_tile_matrix_set` rows (or opened as it is), tiles
/// put and removed at their places in its matrices, and at the end its bounds, metadata and
/// extension rows brought up to date. Nothing else in the file is touched.
final class GeoPackageTileTable {
    let connection: SQLiteConnection
    /// The table.
    let table: String
    /// The file, for messages.
    let store: String
    /// `data_type` in `gpkg_contents`.
    let dataType: String
    private(set) var grid: GeoPackageTileGrid
    private var insert: SQLiteStatement?
    private var delete: SQLiteStatement?
    private var holdsWebP = false

    private init(connection: SQLiteConnection, table: String, store: String, dataType: String, grid: GeoPackageTileGrid) {
        self.connection = connection
        self.table = table
        self.store = store
        self.dataType = dataType
        self.grid = grid
    }

    /// Creates the table (and the core tables when missing) in the web quad tree's matrix set.
    /// - Parameter replacing: drop a tile table of that name first (`--force`); without it an
    ///   existing table is refused, and so, always, is any other table or view of that name.
    /// - Throws: `.unsupported` for tiles a GeoPackage has no table for (GIF, JSON, MLT, bytes
    ///   of no known format): raster tables hold PNG, JPEG and WebP, vector tables MVT.
    static func create(connection: SQLiteConnection, table: String, format: SniffedTileFormat, replacing: Bool,
                       store: String) throws -> GeoPackageTileTable {
        guard [.png, .jpeg, .webp, .pbf].contains(format.format) else {
            throw TileStoreError(.unsupported, store: store, item: GeoPackageAddress.describe(table),
                                 message: "the tiles are \(format); a GeoPackage tile table holds PNG, JPEG or WebP images, or Mapbox Vector Tiles",
                                 hint: "write them to an MBTiles, PMTiles, folder or tar instead")
        }
        try connection.execute(GeoPackageSchema.coreTables)
        let srsID = try webMercatorSRS(connection)
        if (try connection.rows("PRAGMA application_id").first?.first ?? nil) == "0" {
            try connection.execute("PRAGMA application_id = \(GeoPackageCatalog.writtenApplicationID); PRAGMA user_version = \(GeoPackageCatalog.writtenUserVersion)")
        }
        let catalog = try GeoPackageCatalog.read(connection: connection, store: store)
        if catalog.tileTables.contains(where: { $0.table.lowercased() == table.lowercased() }) {
            guard replacing else {
                throw TileStoreError(.destinationExists, store: store, item: GeoPackageAddress.describe(table),
                                     message: "the tile table exists", hint: "add --force to replace it (the file's other tables stay), or name another table: FILE.gpkg#TABLE")
            }
            try drop(table, connection: connection)
        } else if catalog.objectNames.contains(table.lowercased()) || table.lowercased().hasPrefix("gpkg") || table.lowercased().hasPrefix("sqlite_") {
            throw TileStoreError(.destinationExists, store: store, item: GeoPackageAddress.describe(table),
                                 message: "the name is taken by a table that is not a tile table, or reserved", hint: "name another table: FILE.gpkg#TABLE")
        }
        let dataType = format.format == .pbf ? "vector-tiles" : "tiles"
        let contents = try connection.prepare("INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) VALUES (?1, ?2, ?1, '', ?3)")
        try contents.bind(table, at: 1)
        try contents.bind(dataType, at: 2)
        try contents.bind(srsID, at: 3)
        try contents.run()
        let half = GeoPackageSpatialReference.halfWorld
        let set = try connection.prepare("INSERT INTO gpkg_tile_matrix_set (table_name, srs_id, min_x, min_y, max_x, max_y) VALUES (?1, ?2, ?3, ?3, ?4, ?4)")
        try set.bind(table, at: 1)
        try set.bind(srsID, at: 2)
        try set.bind(-half, at: 3)
        try set.bind(half, at: 4)
        try set.run()
        try connection.execute(GeoPackageSchema.tileTable(table))
        let grid = GeoPackageTileGrid.webQuadTree(table: table)
        return GeoPackageTileTable(connection: connection, table: table, store: store, dataType: dataType,
                                   grid: GeoPackageTileGrid(table: table, srsID: srsID, minX: grid.minX, minY: grid.minY, maxX: grid.maxX,
                                                            maxY: grid.maxY, matricesByLevel: [:], matricesByZoom: [:]))
    }

    /// Opens an existing tile table for change, in the matrices it has.
    static func open(connection: SQLiteConnection, contents: GeoPackageContentsRow, store: String) throws -> GeoPackageTileTable {
        GeoPackageTileTable(connection: connection, table: contents.table, store: store, dataType: contents.dataType,
                            grid: try GeoPackageTileGrid.load(connection: connection, table: contents.table, store: store))
    }

    /// Adds or replaces a tile; a zoom without a matrix gets one (its tile size from the image).
    func put(_ tile: Tile) throws {
        let matrix = try grid.matricesByZoom[tile.coordinate.z] ?? addMatrix(for: tile)
        guard let cell = matrix.cell(of: tile.coordinate) else {
            throw TileStoreError(.invalidTile, store: store, item: "tile \(tile.coordinate)",
                                 message: "outside \(GeoPackageAddress.describe(table))'s tile matrix at zoom \(tile.coordinate.z)")
        }
        if insert == nil {
            insert = try connection.prepare("INSERT OR REPLACE INTO \(GeoPackageAddress.quoted(table)) (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)",
                                            persistent: true)
        }
        guard let insert else { return }
        try Self.bind(matrix, cell, to: insert)
        try insert.run(binding: tile.data, at: 4)
        if !holdsWebP, SniffedTileFormat(sniffing: tile.data).format == .webp { holdsWebP = true }
    }

    /// Removes the tile at a coordinate (nothing when there is none).
    func remove(_ coordinate: TileCoordinate) throws {
        guard let matrix = grid.matricesByZoom[coordinate.z], let cell = matrix.cell(of: coordinate) else { return }
        if delete == nil {
            delete = try connection.prepare("DELETE FROM \(GeoPackageAddress.quoted(table)) WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3",
                                            persistent: true)
        }
        guard let delete else { return }
        try Self.bind(matrix, cell, to: delete)
        try delete.run()
    }

    /// Binds a tile's (zoom_level, tile_column, tile_row) to parameters 1 to 3.
    private static func bind(_ matrix: GeoPackageTileMatrix, _ cell: (column: Int, row: Int), to statement: SQLiteStatement) throws {
        try statement.bind(matrix.zoomLevel, at: 1)
        try statement.bind(cell.column, at: 2)
        try statement.bind(cell.row, at: 3)
    }

    private func addMatrix(for tile: Tile) throws -> GeoPackageTileMatrix {
        let size = ImageHeaderSize.of(Array(tile.data.prefix(65_536)))
        let tileSize = size.flatMap { $0.width == $0.height && (1...65_536).contains($0.width) ? $0.width : nil } ?? 256
        let matrix = try grid.newMatrix(z: tile.coordinate.z, tileSize: tileSize, store: store)
        let row = try connection.prepare("""
            INSERT INTO gpkg_tile_matrix (table_name, zoom_level, matrix_width, matrix_height, tile_width, tile_height, pixel_x_size, pixel_y_size) \
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        try row.bind(table, at: 1)
        for (index, value) in [matrix.zoomLevel, matrix.matrixWidth, matrix.matrixHeight, matrix.tileWidth, matrix.tileHeight].enumerated() {
            try row.bind(value, at: Int32(index + 2))
        }
        try row.bind(matrix.pixelXSize, at: 7)
        try row.bind(matrix.pixelYSize, at: 8)
        try row.run()
        grid = grid.adding(matrix)
        return matrix
    }

    /// Brings the table's `gpkg_contents` row (identifier, description, bounds, last change), its
    /// metadata and its extension rows up to date with what was written.
    func finish(metadata: TileMetadata) throws {
        insert = nil
        delete = nil
        try GeoPackageContentsUpdate.write(metadata, table: self)
        try GeoPackageMetadata.write(metadata, table: table, connection: connection)
        if holdsWebP || (metadata.format == .webp && dataType == "tiles") {
            try GeoPackageContentsUpdate.register(GeoPackageSchema.webPExtension, table: table, column: "tile_data", connection: connection)
        }
        if dataType == "vector-tiles" { try GeoPackageVectorLayers.write(metadata, table: table, connection: connection) }
    }

    /// Drops a tile table with every row the GeoPackage keeps about it.
    static func drop(_ table: String, connection: SQLiteConnection) throws {
        try GeoPackageVectorLayers.remove(table: table, connection: connection)
        try GeoPackageMetadata.remove(table: table, connection: connection)
        for catalogTable in ["gpkg_tile_matrix", "gpkg_tile_matrix_set", "gpkg_extensions", "gpkg_contents"] {
            let statement = try connection.prepare("DELETE FROM \(catalogTable) WHERE lower(table_name) = lower(?1)")
            try statement.bind(table, at: 1)
            try statement.run()
        }
        try connection.execute("DROP TABLE IF EXISTS \(GeoPackageAddress.quoted(table))")
    }

    /// The `srs_id` of Web Mercator in the file, its row added when there is none (as 3857, or
    /// the next free id when 3857 is another system's).
    private static func webMercatorSRS(_ connection: SQLiteConnection) throws -> Int {
        let rows = try connection.rows("SELECT srs_id, organization, organization_coordsys_id FROM gpkg_spatial_ref_sys ORDER BY srs_id")
        if let found = rows.first(where: { GeoPackageSpatialReference.isWebMercator(organization: $0[1] ?? "", code: Int($0[2] ?? "") ?? 0) }),
           let id = found[0].flatMap({ Int($0) }) {
            return id
        }
        let taken = Set(rows.compactMap { $0[0].flatMap { Int($0) } })
        let insert = try connection.prepare("""
            INSERT INTO gpkg_spatial_ref_sys (srs_name, srs_id, organization, organization_coordsys_id, definition, description) \
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        var webMercator = GeoPackageSpatialReference.webMercatorID
        for row in GeoPackageSpatialReference.requiredRows {
            var id = row.id
            if row.id == GeoPackageSpatialReference.webMercatorID {
                while taken.contains(id) { id += 1 }
                webMercator = id
            } else if taken.contains(id) {
                continue
            }
            try insert.bind(row.name, at: 1)
            try insert.bind(id, at: 2)
            try insert.bind(row.organization, at: 3)
            try insert.bind(row.code, at: 4)
            try insert.bind(row.definition, at: 5)
            try insert.bind(row.description, at: 6)
            try insert.run()
            insert.reset()
        }
        return webMercator
    }
}
