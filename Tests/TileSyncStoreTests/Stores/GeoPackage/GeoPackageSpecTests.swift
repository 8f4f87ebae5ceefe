import Foundation
import Testing
@testable import TileSync

/// What a GeoPackage TileSync writes must hold by OGC 12-128r18 (GeoPackage 1.3): checked here
/// with SQL on the file, not through TileSync's reader.
@Suite("GeoPackage: the files TileSync writes meet the spec's requirements")
struct GeoPackageSpecTests {
    static func rows(_ path: String, _ sql: String) throws -> [[String?]] {
        try SQLiteConnection(path: path, mode: .readOnly).rows(sql)
    }

    static func columns(_ path: String, _ table: String) throws -> [String] {
        try rows(path, "PRAGMA table_info(\(GeoPackageAddress.quoted(table)))").map { "\($0[1] ?? "") \($0[2] ?? "") \($0[3] ?? "") \($0[5] ?? "")" }
    }

    @Test("Header, core tables and columns, required SRS rows, contents (bounds widened to tile edges), matrix set and matrices of a raster table")
    func rasterTable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("world.gpkg")
        var metadata = GeneratedStore.defaultMetadata
        metadata["bounds"] = "-10,-20,30,40"
        metadata["description"] = "ten tiles"
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2).filter { $0.coordinate.z != 1 }, to: path, metadata: metadata)
        let head = try #require(try FileHandle(forReadingAtPath: path)?.read(upToCount: 100))
        #expect(Array(head[68..<72]) == Array("GPKG".utf8))
        #expect(Array(head[60..<64]) == [0x00, 0x00, 0x28, 0x3C])
        #expect(try Self.rows(path, "PRAGMA integrity_check") == [["ok"]])
        #expect(try Self.rows(path, "PRAGMA foreign_key_check").isEmpty)
        #expect(try Self.columns(path, "gpkg_spatial_ref_sys") == ["srs_name TEXT 1 0", "srs_id INTEGER 1 1", "organization TEXT 1 0",
                                                                   "organization_coordsys_id INTEGER 1 0", "definition TEXT 1 0", "description TEXT 0 0"])
        #expect(try Self.columns(path, "gpkg_contents") == ["table_name TEXT 1 1", "data_type TEXT 1 0", "identifier TEXT 0 0", "description TEXT 0 0",
                                                           "last_change DATETIME 1 0", "min_x DOUBLE 0 0", "min_y DOUBLE 0 0", "max_x DOUBLE 0 0",
                                                           "max_y DOUBLE 0 0", "srs_id INTEGER 0 0"])
        #expect(try Self.columns(path, "gpkg_tile_matrix_set") == ["table_name TEXT 1 1", "srs_id INTEGER 1 0", "min_x DOUBLE 1 0", "min_y DOUBLE 1 0",
                                                                   "max_x DOUBLE 1 0", "max_y DOUBLE 1 0"])
        #expect(try Self.columns(path, "gpkg_tile_matrix") == ["table_name TEXT 1 1", "zoom_level INTEGER 1 2", "matrix_width INTEGER 1 0",
                                                               "matrix_height INTEGER 1 0", "tile_width INTEGER 1 0", "tile_height INTEGER 1 0",
                                                               "pixel_x_size DOUBLE 1 0", "pixel_y_size DOUBLE 1 0"])
        #expect(try Self.columns(path, "world") == ["id INTEGER 0 1", "zoom_level INTEGER 1 0", "tile_column INTEGER 1 0", "tile_row INTEGER 1 0",
                                                    "tile_data BLOB 1 0"])
        #expect(try Self.rows(path, "SELECT srs_id, organization, organization_coordsys_id FROM gpkg_spatial_ref_sys ORDER BY srs_id")
            == [["-1", "NONE", "-1"], ["0", "NONE", "0"], ["3857", "EPSG", "3857"], ["4326", "EPSG", "4326"]])
        #expect(try Self.rows(path, "SELECT table_name, data_type, identifier, description, srs_id, printf('%.4f %.4f %.4f %.4f', min_x, min_y, max_x, max_y) FROM gpkg_contents")
            == [["world", "tiles", "generated", "ten tiles", "3857", "-10018754.1714 -10018754.1714 10018754.1714 10018754.1714"]])
        #expect(try Self.rows(path, "SELECT table_name, srs_id, printf('%.6f %.6f %.6f %.6f', min_x, min_y, max_x, max_y) FROM gpkg_tile_matrix_set")
            == [["world", "3857", "-20037508.342789 -20037508.342789 20037508.342789 20037508.342789"]])
        #expect(try Self.rows(path, "SELECT zoom_level, matrix_width, matrix_height, tile_width, tile_height, printf('%.6f %.6f', pixel_x_size, pixel_y_size) FROM gpkg_tile_matrix ORDER BY zoom_level")
            == [["0", "1", "1", "256", "256", "156543.033928 156543.033928"], ["2", "4", "4", "256", "256", "39135.758482 39135.758482"]])
        #expect(try Self.rows(path, "SELECT zoom_level, tile_column, tile_row FROM world WHERE zoom_level = 2 AND tile_column = 1 AND tile_row = 3").count == 1)
        #expect(try Self.rows(path, "SELECT table_name, column_name, extension_name, scope FROM gpkg_extensions ORDER BY table_name")
            == [["gpkg_metadata", nil, "gpkg_metadata", "read-write"], ["gpkg_metadata_reference", nil, "gpkg_metadata", "read-write"]])
        #expect(try Self.rows(path, "SELECT r.reference_scope, r.table_name, m.md_scope, m.mime_type FROM gpkg_metadata m JOIN gpkg_metadata_reference r ON r.md_file_id = m.id")
            == [["table", "world", "dataset", "application/json"]])
    }

    @Test("A row's place: tile_row counts from the top (XYZ), as the matrix set's origin is its top-left corner")
    func rowsFromTheTop() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("rows.gpkg")
        let tile = try TileCoordinate(z: 3, x: 2, y: 1)
        try GeneratedStore.write([Tile(coordinate: tile, data: GeneratedStore.bytes(for: tile))], to: path)
        #expect(try Self.rows(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM rows")
            == [["3", "2", "1", GeneratedStore.bytes(for: tile).map { String(format: "%02X", $0) }.joined()]])
    }

    @Test("WebP tiles register gpkg_webp on tile_data; vector tiles are vector-tiles with the extension's layer and field rows")
    func extensions() throws {
        let directory = try TemporaryDirectory()
        let webP = directory.file("webp.gpkg")
        let tile = try TileCoordinate(z: 0, x: 0, y: 0)
        let webPBytes = Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8L".utf8) + Data(repeating: 1, count: 20)
        let webPWriter = try TileStoreLocation(parsing: webP).makeWriter()
        try webPWriter.begin(metadata: TileMetadata(), format: SniffedTileFormat(.webp))
        try webPWriter.write(Tile(coordinate: tile, data: webPBytes))
        try webPWriter.finish()
        #expect(try Self.rows(webP, "SELECT table_name, column_name, definition FROM gpkg_extensions WHERE extension_name = 'gpkg_webp'")
            == [["webp", "tile_data", "http://www.geopackage.org/spec/#extension_tiles_webp"]])
        let vector = directory.file("roads.gpkg")
        var metadata = TileMetadata()
        metadata["format"] = "pbf"
        metadata["json"] = #"{"vector_layers":[{"id":"roads","description":"ways","minzoom":0,"maxzoom":14,"fields":{"class":"String","lanes":"Number","oneway":"Boolean","ref":"text"}},{"id":"water","fields":{}}]}"#
        let writer = try TileStoreLocation(parsing: vector).makeWriter()
        try writer.begin(metadata: metadata, format: SniffedTileFormat(.pbf))
        try writer.write(Tile(coordinate: tile, data: Data([0x1A, 0x02, 0x0A, 0x00])))
        try writer.finish()
        #expect(try Self.rows(vector, "SELECT data_type FROM gpkg_contents") == [["vector-tiles"]])
        #expect(try Self.rows(vector, "SELECT table_name, column_name, extension_name FROM gpkg_extensions WHERE extension_name LIKE 'im_%' ORDER BY table_name, extension_name")
            == [["gpkgext_vt_fields", nil, "im_vector_tiles"], ["gpkgext_vt_layers", nil, "im_vector_tiles"],
                ["roads", nil, "im_vector_tiles"], ["roads", "tile_data", "im_vector_tiles_mapbox"]])
        #expect(try Self.rows(vector, "SELECT table_name, name, description, minzoom, maxzoom FROM gpkgext_vt_layers ORDER BY id")
            == [["roads", "roads", "ways", "0", "14"], ["roads", "water", nil, nil, nil]])
        #expect(try Self.rows(vector, "SELECT l.name, f.name, f.type FROM gpkgext_vt_fields f JOIN gpkgext_vt_layers l ON l.id = f.layer_id ORDER BY f.id")
            == [["roads", "class", "String"], ["roads", "lanes", "Number"], ["roads", "oneway", "Boolean"], ["roads", "ref", "String"]])
        let reader = try TileStoreLocation(parsing: vector).openReader()
        #expect(try reader.metadata() == metadata)
    }

    @Test("A vector tile table written by another tool gets format and vector_layers from the extension's tables")
    func derivedVectorMetadata() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.gpkg")
        let writer = try TileStoreLocation(parsing: path).makeWriter()
        var metadata = TileMetadata()
        metadata["json"] = #"{"vector_layers":[{"id":"roads","minzoom":2,"maxzoom":9,"fields":{"class":"String"}}]}"#
        try writer.begin(metadata: metadata, format: SniffedTileFormat(.pbf))
        try writer.write(Tile(coordinate: TileCoordinate(z: 2, x: 1, y: 1), data: Data([0x1A, 0x00])))
        try writer.finish()
        try SQLiteConnection(path: path, mode: .readWrite).execute("DELETE FROM gpkg_metadata_reference; DELETE FROM gpkg_metadata")
        let derived = try TileStoreLocation(parsing: path).openReader().metadata()
        #expect(derived.entries.map { "\($0.key)=\($0.value ?? "NULL")" } == [
            "name=other", "bounds=-90,0,0,66.51326", "minzoom=2", "maxzoom=2", "format=pbf",
            #"json={"vector_layers":[{"id":"roads","minzoom":2,"maxzoom":9,"fields":{"class":"String"}}]}"#,
        ])
    }
}
