import Foundation

/// Writes what `gpkg_contents` says of a tile table after a change, and registers extensions.
enum GeoPackageContentsUpdate {
    /// Sets the table's identifier (the metadata's `name` unless another table has it),
    /// description, bounds and `last_change`. The bounds are on tile edges of the deepest zoom
    /// (GDAL takes them as the raster's extent, which then starts on a pixel of the tiles): the
    /// metadata's `bounds` widened to them, else the extent of the tiles there.
    static func write(_ metadata: TileMetadata, table: GeoPackageTileTable) throws {
        let connection = table.connection
        var identifier = table.table
        if let name = metadata["name"], !name.isEmpty {
            let taken = try connection.prepare("SELECT 1 FROM gpkg_contents WHERE identifier = ?1 AND table_name != ?2")
            try taken.bind(name, at: 1)
            try taken.bind(table.table, at: 2)
            if try !taken.step() { identifier = name }
        }
        let bounds = try deepestMatrix(table).flatMap { matrix in
            try metadataBounds(metadata).map { snapped($0, to: matrix) } ?? tileExtent(table, matrix: matrix)
        }
        let update = try connection.prepare("""
            UPDATE gpkg_contents SET identifier = ?2, description = ?3, min_x = ?4, min_y = ?5, max_x = ?6, max_y = ?7, \
            last_change = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE table_name = ?1
            """)
        try update.bind(table.table, at: 1)
        try update.bind(identifier, at: 2)
        try update.bind(metadata["description"] ?? "", at: 3)
        try update.bind(bounds?.minX, at: 4)
        try update.bind(bounds?.minY, at: 5)
        try update.bind(bounds?.maxX, at: 6)
        try update.bind(bounds?.maxY, at: 7)
        try update.run()
    }

    /// Adds a `gpkg_extensions` row once.
    static func register(_ extensionDefinition: (name: String, definition: String), table: String?, column: String?,
                         connection: SQLiteConnection) throws {
        let insert = try connection.prepare("""
            INSERT INTO gpkg_extensions (table_name, column_name, extension_name, definition, scope) \
            SELECT ?1, ?2, ?3, ?4, 'read-write' WHERE NOT EXISTS (SELECT 1 FROM gpkg_extensions \
            WHERE table_name IS ?1 AND column_name IS ?2 AND extension_name = ?3)
            """)
        try insert.bind(table, at: 1)
        try insert.bind(column, at: 2)
        try insert.bind(extensionDefinition.name, at: 3)
        try insert.bind(extensionDefinition.definition, at: 4)
        try insert.run()
    }

    private typealias Bounds = (minX: Double, minY: Double, maxX: Double, maxY: Double)

    private static func metadataBounds(_ metadata: TileMetadata) throws -> Bounds? {
        guard let box = metadata.bounds, !box.crossesAntimeridian else { return nil }
        let southWest = GeoPackageSpatialReference.metres(longitude: box.west, latitude: box.south)
        let northEast = GeoPackageSpatialReference.metres(longitude: box.east, latitude: box.north)
        return (southWest.x, southWest.y, northEast.x, northEast.y)
    }

    private static func deepestMatrix(_ table: GeoPackageTileTable) throws -> GeoPackageTileMatrix? {
        let levels = try table.connection.rows("SELECT max(zoom_level) FROM \(GeoPackageAddress.quoted(table.table))")
        return levels.first?.first.flatMap { $0.flatMap { Int($0) } }.flatMap { table.grid.matricesByLevel[$0] }
    }

    /// `bounds` widened to the edges of the tiles of `matrix` it touches.
    private static func snapped(_ bounds: Bounds, to matrix: GeoPackageTileMatrix) -> Bounds {
        let span = GeoPackageSpatialReference.worldWidth / Double(1 << matrix.z), half = GeoPackageSpatialReference.halfWorld
        func down(_ value: Double) -> Double { (value / span).rounded(.down) * span }
        func up(_ value: Double) -> Double { (value / span).rounded(.up) * span }
        return (max(-half, -half + down(bounds.minX + half)), max(-half, half - up(half - bounds.minY)),
                min(half, -half + up(bounds.maxX + half)), min(half, half - down(half - bounds.maxY)))
    }

    private static func tileExtent(_ table: GeoPackageTileTable, matrix: GeoPackageTileMatrix) throws -> Bounds? {
        let extent = try table.connection.prepare("""
            SELECT min(tile_column), max(tile_column), min(tile_row), max(tile_row) FROM \(GeoPackageAddress.quoted(table.table)) \
            WHERE zoom_level = ?1 AND tile_column BETWEEN 0 AND ?2 AND tile_row BETWEEN 0 AND ?3
            """)
        try extent.bind(matrix.zoomLevel, at: 1)
        try extent.bind(matrix.matrixWidth - 1, at: 2)
        try extent.bind(matrix.matrixHeight - 1, at: 3)
        guard try extent.step(), (0..<4).allSatisfy({ extent.isInteger(at: Int32($0)) }) else { return nil }
        let span = GeoPackageSpatialReference.worldWidth / Double(1 << matrix.z), half = GeoPackageSpatialReference.halfWorld
        let west = Double(extent.int(at: 0) + matrix.columnOffset), east = Double(extent.int(at: 1) + matrix.columnOffset + 1)
        let north = Double(extent.int(at: 2) + matrix.rowOffset), south = Double(extent.int(at: 3) + matrix.rowOffset + 1)
        return (-half + west * span, half - south * span, -half + east * span, half - north * span)
    }
}
