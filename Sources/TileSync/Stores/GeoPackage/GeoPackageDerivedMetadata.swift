import Foundation

/// The metadata of a tile table TileSync did not write, from the places the spec gives:
/// `name` from the identifier, `description`, `bounds` from `gpkg_contents` (else the tile
/// matrix set), `minzoom`/`maxzoom` from the zooms holding tiles, `format` (`pbf` for vector
/// tiles, `webp` where the WebP extension is registered), `json` with `vector_layers` from the
/// vector tiles extension.
enum GeoPackageDerivedMetadata {
    static func read(_ reader: GeoPackageReader) throws -> TileMetadata {
        let contents = reader.contents, connection = reader.connection
        var entries = [TileMetadata.Entry(key: "name", value: contents.identifier ?? contents.table)]
        if let description = contents.description, !description.isEmpty {
            entries.append(TileMetadata.Entry(key: "description", value: description))
        }
        if let box = bounds(reader) { entries.append(TileMetadata.Entry(key: "bounds", value: box.description)) }
        let levels = try connection.rows("SELECT DISTINCT zoom_level FROM \(reader.quotedTable)").compactMap { $0.first.flatMap { $0.flatMap { Int($0) } } }
        let zooms = levels.compactMap { reader.grid.matricesByLevel[$0]?.z }
        if let low = zooms.min(), let high = zooms.max() {
            entries.append(TileMetadata.Entry(key: "minzoom", value: String(low)))
            entries.append(TileMetadata.Entry(key: "maxzoom", value: String(high)))
        }
        if contents.dataType == "vector-tiles" {
            entries.append(TileMetadata.Entry(key: "format", value: TileFormat.pbf.rawValue))
        } else if try hasWebPExtension(reader) {
            entries.append(TileMetadata.Entry(key: "format", value: TileFormat.webp.rawValue))
        }
        if let layers = try GeoPackageVectorLayers.read(table: contents.table, connection: connection, catalog: reader.catalog) {
            entries.append(TileMetadata.Entry(key: "json", value: layers))
        }
        return TileMetadata(entries)
    }

    /// True when the table registers the WebP extension (raster tables may mix PNG and JPEG
    /// otherwise, as GDAL writes them, so no single format is declared for them).
    private static func hasWebPExtension(_ reader: GeoPackageReader) throws -> Bool {
        guard reader.catalog.objectNames.contains("gpkg_extensions") else { return false }
        let query = try reader.connection.prepare("SELECT 1 FROM gpkg_extensions WHERE table_name = ?1 AND extension_name = 'gpkg_webp'")
        try query.bind(reader.contents.table, at: 1)
        return try query.step()
    }

    /// `gpkg_contents`' extent when it is in the table's SRS, else the tile matrix set's, in degrees.
    private static func bounds(_ reader: GeoPackageReader) -> BoundingBox? {
        let grid = reader.grid
        let whole: (minX: Double, minY: Double, maxX: Double, maxY: Double) = (grid.minX, grid.minY, grid.maxX, grid.maxY)
        let extent = reader.contents.srsID == grid.srsID ? reader.contents.bounds ?? whole : whole
        guard [extent.minX, extent.minY, extent.maxX, extent.maxY].allSatisfy(\.isFinite) else { return nil }
        let half = GeoPackageSpatialReference.halfWorld
        func clamp(_ value: Double) -> Double { max(-half, min(half, value)) }
        let southWest = GeoPackageSpatialReference.degrees(x: clamp(extent.minX), y: clamp(extent.minY))
        let northEast = GeoPackageSpatialReference.degrees(x: clamp(extent.maxX), y: clamp(extent.maxY))
        return try? BoundingBox(west: southWest.longitude, south: southWest.latitude, east: northEast.longitude, north: northEast.latitude)
    }
}
