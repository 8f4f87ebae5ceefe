import Foundation
import Testing
@testable import TileSync

@Suite("GeoPackage: tile matrix sets placed on the web quad tree, or refused naming what does not fit")
struct GeoPackageMatrixTests {
    static let span3 = GeoPackageSpatialReference.worldWidth / 8

    /// A set whose origin is the corner of tile 3/2/1, 2 x 3 tiles of zoom 3; zoom_level = z + 4;
    /// 512-pixel tiles at z3, 256 at z5, nothing at z4.
    static func shiftedSet(_ path: String) throws -> HandMadeGeoPackage {
        let half = GeoPackageSpatialReference.halfWorld
        let minX = -half + 2 * span3, maxY = half - span3
        let package = try HandMadeGeoPackage(path: path)
        try package.addTable("shifted", set: (minX, maxY - 3 * span3, minX + 2 * span3, maxY),
                             matrices: [(7, 2, 3, 512, 512, span3 / 512, span3 / 512), (9, 8, 12, 256, 256, span3 / 4 / 256, span3 / 4 / 256)])
        try package.addTile("shifted", zoomLevel: 7, column: 1, row: 2, data: Data("a".utf8))
        try package.addTile("shifted", zoomLevel: 9, column: 7, row: 11, data: Data("bb".utf8))
        return package
    }

    @Test("Shifted origin, 512-pixel tiles, zoom levels numbered from 4 and a gap: rows land on z/x/y; a sync adds a zoom in the same set")
    func shiftedOrigin() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("set.gpkg")
        _ = try Self.shiftedSet(path)
        let location = try TileStoreLocation(parsing: path)
        let reader = try location.openReader()
        #expect(try StoreContents.tiles(reader) == [try TileCoordinate(z: 3, x: 3, y: 3): Data("a".utf8), try TileCoordinate(z: 5, x: 15, y: 15): Data("bb".utf8)])
        #expect(try reader.tile(at: TileCoordinate(z: 5, x: 15, y: 15)) == Data("bb".utf8))
        #expect(try reader.tile(at: TileCoordinate(z: 5, x: 14, y: 15)) == nil)
        #expect(try reader.tile(at: TileCoordinate(z: 3, x: 0, y: 0)) == nil)
        #expect(reader.order == .zoomColumnRow)
        let listing = try reader.listing(matching: TileFilter(minZoom: 5, maxZoom: 5))
        #expect(try listing.next().map { "\($0.coordinate) \($0.size) \($0.hash == nil)" } == "5/15/15 2 true")
        #expect(try listing.next() == nil)
        let updater = try location.makeUpdater()
        try updater.begin(metadata: try reader.metadata())
        try updater.put(Tile(coordinate: TileCoordinate(z: 4, x: 5, y: 3), data: Data("new".utf8)), hash: .unknown, modificationTime: 0)
        try updater.put(Tile(coordinate: TileCoordinate(z: 3, x: 2, y: 1), data: Data("corner".utf8)), hash: .unknown, modificationTime: 0)
        #expect {
            try updater.put(Tile(coordinate: TileCoordinate(z: 3, x: 0, y: 0), data: Data("x".utf8)), hash: .unknown, modificationTime: 0)
        } throws: { error in
            (error as? TileStoreError)?.description == path + ": tile 3/0/0: outside table \"shifted\"'s tile matrix at zoom 3"
        }
        try updater.finish()
        #expect(try HandMadeGeoPackage.rows(path, "SELECT zoom_level, matrix_width, matrix_height, tile_width FROM gpkg_tile_matrix ORDER BY zoom_level")
            == [["7", "2", "3", "512"], ["8", "4", "6", "256"], ["9", "8", "12", "256"]])
        #expect(try HandMadeGeoPackage.rows(path, "SELECT zoom_level, tile_column, tile_row, CAST(tile_data AS TEXT) FROM shifted ORDER BY zoom_level, tile_column")
            == [["7", "0", "0", "corner"], ["7", "1", "2", "a"], ["8", "1", "1", "new"], ["9", "7", "11", "bb"]])
    }

    static func refusal(_ build: (HandMadeGeoPackage) throws -> Void) throws -> String {
        let directory = try TemporaryDirectory()
        let path = directory.file("bad.gpkg")
        try build(try HandMadeGeoPackage(path: path))
        do {
            let reader = try TileStoreLocation(parsing: path).openReader()
            _ = try StoreContents.tiles(reader)
            return "read without error"
        } catch let error as TileStoreError {
            return error.description.replacingOccurrences(of: path, with: "FILE")
        }
    }

    @Test("Sets that do not fit the quad tree are refused naming the SRS, the table and the first matrix that does not fit")
    func refusals() throws {
        let world = HandMadeGeoPackage.world
        let pixel0 = GeoPackageSpatialReference.worldWidth / 256
        #expect(try Self.refusal { try $0.addTable("geo", srsID: 4326, set: (-180, -90, 180, 90), matrices: [(0, 2, 1, 256, 256, 0.703125, 0.703125)]) }
            == "FILE: table \"geo\": uses SRS 4326 (EPSG:4326 WGS 84 geodetic), not Web Mercator (EPSG:3857), whose quad tree z/x/y means; its tiles would land in the wrong places (make a Web Mercator copy first: gdal_translate -of GPKG -co TILING_SCHEME=GoogleMapsCompatible)")
        #expect(try Self.refusal { try $0.addTable("t", set: world, matrices: [HandMadeGeoPackage.quadMatrix(0), (1, 2, 2, 256, 256, pixel0 / 2, pixel0)]) }
            == "FILE: table \"t\" gpkg_tile_matrix zoom_level 1: its tiles are 20037508.342789244 by 40075016.68557849 metres, not square; it does not fit the web quad tree (EPSG:3857)")
        #expect(try Self.refusal { try $0.addTable("t", set: world, matrices: [(3, 8, 8, 256, 256, 100, 100)]) }
            == "FILE: table \"t\" gpkg_tile_matrix zoom_level 3: a tile spans 25600.0 metres (tile_width 256 x pixel_x_size 100.0), which is no zoom's tile span; it does not fit the web quad tree (EPSG:3857)")
        #expect(try Self.refusal { try $0.addTable("t", set: (world.0 + 5_000_000, world.1, world.2, world.3), matrices: [HandMadeGeoPackage.quadMatrix(2)]) }
            == "FILE: table \"t\" gpkg_tile_matrix zoom_level 2: the tile matrix set's corner (-15037508.342789244, 20037508.342789244) is not a tile corner of zoom 2; it does not fit the web quad tree (EPSG:3857)")
        #expect(try Self.refusal { try $0.addTable("t", set: world, matrices: [HandMadeGeoPackage.quadMatrix(1), HandMadeGeoPackage.quadMatrix(1, shift: 5)]) }
            == "FILE: table \"t\" zoom_level 6: has the tile span of quad-tree zoom 1, as zoom_level 1 has")
        #expect(try Self.refusal { try $0.addTable("t", srsID: 999, set: world, matrices: []) }
            == "FILE: table \"t\": its srs_id 999 has no row in gpkg_spatial_ref_sys")
    }

    @Test("Bounds written to two decimals (20037508.34) and GDAL's 15 digits are the same world; a tile row lands on its tile")
    func roundedBounds() throws {
        for bound in [20_037_508.34, 20_037_508.342_789_2] {
            #expect(try Self.refusal { package in
                try package.addTable("t", set: (-bound, -bound, bound, bound), matrices: [HandMadeGeoPackage.quadMatrix(0), HandMadeGeoPackage.quadMatrix(1)])
                try package.addTile("t", zoomLevel: 1, column: 1, row: 0, data: Data("x".utf8))
            } == "read without error")
        }
    }

    @Test("Rows outside their matrix, a zoom_level of 2^31 without a matrix, missing tables: errors naming the table and row")
    func badRows() throws {
        #expect(try Self.refusal { package in
            try package.addTable("t", set: HandMadeGeoPackage.world, matrices: [HandMadeGeoPackage.quadMatrix(1)])
            try package.addTile("t", zoomLevel: 1, column: 2, row: 0, data: Data("x".utf8))
        } == "FILE: table \"t\" row (zoom_level 1, tile_column 2, tile_row 0): outside the tile matrix (2 x 2 tiles at zoom_level 1)")
        #expect(try Self.refusal { package in
            try package.addTable("t", set: HandMadeGeoPackage.world, matrices: [HandMadeGeoPackage.quadMatrix(1)])
            try package.addTile("t", zoomLevel: 1 << 31, column: 0, row: 0, data: Data("x".utf8))
        } == "FILE: table \"t\" row (zoom_level 2147483648, tile_column 0, tile_row 0): zoom_level 2147483648 has no row in gpkg_tile_matrix")
        #expect(try Self.refusal { package in
            try package.addTable("t", set: HandMadeGeoPackage.world, matrices: [HandMadeGeoPackage.quadMatrix(0)])
            try package.addTile("t", zoomLevel: 0, column: 0, row: 0, data: Data())
        } == "FILE: tile 0/0/0 in table \"t\": tile_data is empty (0 bytes)")
        #expect(try Self.refusal { package in
            try package.connection.execute("DROP TABLE gpkg_tile_matrix")
        } == "FILE: a GeoPackage without the table a tile pyramid needs: gpkg_tile_matrix")
        #expect(try Self.refusal { _ in } == "FILE: a GeoPackage with no tile table")
    }

    @Test("GeoPackage 1.0's triggers on a tile table: a sync that adds a zoom passes them; a trigger that refuses names the tile and leaves the file as it was")
    func triggers() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.gpkg")
        let package = try HandMadeGeoPackage(path: path)
        try package.addTable("t", set: HandMadeGeoPackage.world, matrices: [HandMadeGeoPackage.quadMatrix(0)])
        try package.connection.execute("""
            CREATE TRIGGER t_zoom_insert BEFORE INSERT ON t FOR EACH ROW BEGIN \
            SELECT RAISE(ABORT, 'insert on table t violates constraint: zoom_level not specified for table in gpkg_tile_matrix') \
            WHERE NOT (NEW.zoom_level IN (SELECT zoom_level FROM gpkg_tile_matrix WHERE table_name = 't')); END;
            CREATE TRIGGER t_tile_column_insert BEFORE INSERT ON t FOR EACH ROW BEGIN \
            SELECT RAISE(ABORT, 'insert on table t violates constraint: tile_column must be < matrix_width') \
            WHERE NOT (NEW.tile_column < (SELECT matrix_width FROM gpkg_tile_matrix WHERE table_name = 't' AND zoom_level = NEW.zoom_level)); END;
            """)
        let location = try TileStoreLocation(parsing: path)
        let updater = try location.makeUpdater()
        try updater.begin(metadata: TileMetadata())
        try updater.put(Tile(coordinate: TileCoordinate(z: 3, x: 7, y: 2), data: Data("deep".utf8)), hash: .unknown, modificationTime: 0)
        try updater.finish()
        #expect(try StoreContents.tiles(location.openReader()) == [try TileCoordinate(z: 3, x: 7, y: 2): Data("deep".utf8)])
        try package.connection.execute("CREATE TRIGGER t_refuse BEFORE INSERT ON t FOR EACH ROW BEGIN SELECT RAISE(ABORT, 'read-only pyramid'); END")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try location.makeUpdater()
        try refused.begin(metadata: TileMetadata())
        #expect {
            try refused.put(Tile(coordinate: TileCoordinate(z: 0, x: 0, y: 0), data: Data("x".utf8)), hash: .unknown, modificationTime: 0)
        } throws: { error in
            (error as? TileStoreError)?.description == path + ": tile 0/0/0: read-only pyramid"
        }
        refused.abort()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("Hostile matrix values: a width of 2^62, a zoom_level near the 64-bit limit, no tile size: refused naming the matrix, no crash")
    func hostileMatrices() throws {
        let world = HandMadeGeoPackage.world
        let pixel = GeoPackageSpatialReference.worldWidth / 256
        #expect(try Self.refusal { try $0.addTable("t", set: world, matrices: [(0, 1 << 62, 1, 256, 256, pixel, pixel)]) }
            == "FILE: table \"t\" gpkg_tile_matrix zoom_level 0: sizes out of range (matrix 4611686018427387904 x 1, tiles 256 x 256 px, pixels \(pixel) x \(pixel))")
        #expect(try Self.refusal { try $0.addTable("t", set: world, matrices: [(Int.min, 1, 1, 256, 256, pixel, pixel)]) }
            == "FILE: table \"t\" gpkg_tile_matrix zoom_level -9223372036854775808: zoom_level is out of range")
        #expect(try Self.refusal { try $0.addTable("t", set: world, matrices: [(0, 1, 1, 0, 256, pixel, pixel)]) }
            == "FILE: table \"t\" gpkg_tile_matrix zoom_level 0: sizes out of range (matrix 1 x 1, tiles 0 x 256 px, pixels \(pixel) x \(pixel))")
    }

    @Test("A table name with quotes and SQL in it is written, read and synced as a name; nothing else in the file changes")
    func hostileTableName() throws {
        let directory = try TemporaryDirectory()
        let name = "we\"ird'; DROP TABLE gpkg_contents;--"
        let location = try TileStoreLocation(parsing: directory.file("n.gpkg") + "#" + name)
        let tiles = GeneratedStore.pyramid(maxZoom: 1)
        let writer = try location.makeWriter()
        try writer.begin(metadata: GeneratedStore.defaultMetadata, format: SniffedTileFormat(.png))
        for tile in tiles { try writer.write(tile) }
        try writer.finish()
        #expect(try HandMadeGeoPackage.rows(directory.file("n.gpkg"), "SELECT table_name FROM gpkg_contents") == [[name]])
        #expect(try StoreContents.tiles(location.openReader()).count == 5)
        #expect(try location.openReader().metadata() == GeneratedStore.defaultMetadata)
    }

    @Test("Reading, listing, verifying and info of a GeoPackage never write to it")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("set.gpkg")
        _ = try Self.shiftedSet(path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let location = try TileStoreLocation(parsing: path)
        let reader = try location.openReader()
        _ = try StoreContents.tiles(reader)
        _ = try reader.metadata()
        _ = try reader.summary(matching: .all)
        let verified = try StoreVerifier.verify(location)
        #expect(verified.problems.isEmpty && verified.tilesChecked == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }
}

extension HandMadeGeoPackage {
    static func rows(_ path: String, _ sql: String) throws -> [[String?]] {
        try SQLiteConnection(path: path, mode: .readOnly).rows(sql)
    }
}
