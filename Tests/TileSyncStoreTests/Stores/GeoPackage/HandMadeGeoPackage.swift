import Foundation
@testable import TileSync

/// GeoPackages built row by row with SQL, as other tools write them: any tile matrix set, SRS,
/// matrices and rows, so the reader meets what TileSync itself would never write.
struct HandMadeGeoPackage {
    let path: String
    let connection: SQLiteConnection

    /// A file with the spec's core tables, the required SRS rows and Web Mercator as 3857.
    init(path: String) throws {
        self.path = path
        connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try connection.execute("PRAGMA application_id = 1196444487; PRAGMA user_version = 10300")
        try connection.execute(GeoPackageSchema.coreTables)
        for row in GeoPackageSpatialReference.requiredRows {
            try connection.execute("""
                INSERT INTO gpkg_spatial_ref_sys VALUES ('\(row.name)', \(row.id), '\(row.organization)', \(row.code), 'definition', NULL)
                """)
        }
    }

    /// Adds a tile table with its contents row, matrix set and matrices
    /// (zoom_level, matrix_width, matrix_height, tile_width, tile_height, pixel_x_size, pixel_y_size).
    func addTable(_ name: String, srsID: Int = 3857, set: (Double, Double, Double, Double),
                  matrices: [(Int, Int, Int, Int, Int, Double, Double)], dataType: String = "tiles") throws {
        let literal = "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
        try connection.execute("""
            INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (\(literal), '\(dataType)', \(literal), \(srsID));
            INSERT INTO gpkg_tile_matrix_set VALUES (\(literal), \(srsID), \(set.0), \(set.1), \(set.2), \(set.3));
            \(GeoPackageSchema.tileTable(name));
            """)
        for m in matrices {
            try connection.execute("INSERT INTO gpkg_tile_matrix VALUES (\(literal), \(m.0), \(m.1), \(m.2), \(m.3), \(m.4), \(m.5), \(m.6))")
        }
    }

    /// Adds a tile row.
    func addTile(_ table: String, zoomLevel: Int, column: Int, row: Int, data: Data) throws {
        let insert = try connection.prepare("INSERT INTO \(GeoPackageAddress.quoted(table)) (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)")
        try insert.bind(zoomLevel, at: 1)
        try insert.bind(column, at: 2)
        try insert.bind(row, at: 3)
        try insert.bind(data, at: 4)
        try insert.run()
    }

    /// Adds a features table with two rows and an attributes table, as GDAL or QGIS would.
    func addFeaturesAndAttributes() throws {
        try connection.execute("""
            CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL, \
            srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL, CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name));
            CREATE TABLE parks (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom POINT, name TEXT);
            INSERT INTO parks (geom, name) VALUES (X'4750000100000000', 'north'), (X'4750000100000001', 'south');
            INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES ('parks', 'features', 'parks', 4326);
            INSERT INTO gpkg_geometry_columns VALUES ('parks', 'geom', 'POINT', 4326, 0, 0);
            CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);
            INSERT INTO notes (text) VALUES ('kept');
            INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES ('notes', 'attributes', 'notes');
            """)
    }

    /// The web quad tree's matrix at zoom z, as GDAL writes GoogleMapsCompatible (zoom_level = z + shift, 256 px).
    static func quadMatrix(_ z: Int, shift: Int = 0, tileSize: Int = 256) -> (Int, Int, Int, Int, Int, Double, Double) {
        let pixel = GeoPackageSpatialReference.worldWidth / Double(1 << z) / Double(tileSize)
        return (z + shift, 1 << z, 1 << z, tileSize, tileSize, pixel, pixel)
    }

    static let world = (-GeoPackageSpatialReference.halfWorld, -GeoPackageSpatialReference.halfWorld,
                        GeoPackageSpatialReference.halfWorld, GeoPackageSpatialReference.halfWorld)
}
