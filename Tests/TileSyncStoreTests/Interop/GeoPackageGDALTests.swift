import Foundation
import Testing
@testable import TileSync

/// GDAL (`gdal-bin`), the GeoPackage reader and writer no one here wrote, and python's sqlite3
/// with its own placement of rows on the quad tree.
enum GDALTools {
    static let available: Bool = (try? run("gdal_translate", ["--version"]))?.status == 0
    static let missingMessage: Comment = "GDAL not found (apt-get install gdal-bin): GeoPackage interop with GDAL SKIPPED"

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try ExternalTool.run(tool, arguments)
    }

    /// `z/x/y MD5` of every row of a GeoPackage tile table, placed by python from the table's
    /// matrix set and matrices, sorted.
    static func pythonRows(_ path: String, table: String) throws -> [String] {
        let script = """
            import sqlite3, hashlib, math, sys
            db = sqlite3.connect(sys.argv[1]); t = sys.argv[2]; half = 20037508.342789244
            minx, maxy = db.execute("SELECT min_x, max_y FROM gpkg_tile_matrix_set WHERE table_name = ?", (t,)).fetchone()
            mats = {r[0]: r[1] * r[2] for r in db.execute("SELECT zoom_level, tile_width, pixel_x_size FROM gpkg_tile_matrix WHERE table_name = ?", (t,))}
            out = []
            for zl, col, row, data in db.execute('SELECT zoom_level, tile_column, tile_row, tile_data FROM "%s"' % t):
                span = mats[zl]; z = round(math.log2(2 * half / span))
                out.append("%d/%d/%d %s" % (z, col + round((minx + half) / span), row + round((half - maxy) / span), hashlib.md5(data).hexdigest().upper()))
            print("\\n".join(sorted(out)))
            """
        let result = try run("python3", ["-c", script, path, table])
        #expect(result.status == 0)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// `z/x/y MD5` of every tile TileSync reads, sorted.
    static func ours(_ address: String) throws -> [String] {
        try StoreContents.tiles(address).map { "\($0.key) \(ContentHash(of: $0.value).hex)" }.sorted()
    }
}

@Suite("GeoPackage and GDAL: each reads what the other writes", .enabled(if: Fixtures.available && GDALTools.available, GDALTools.available ? Fixtures.missingMessage : GDALTools.missingMessage))
struct GeoPackageGDALTests {
    static let raster = ["node-mbtiles/plain_1.mbtiles", "node-mbtiles/plain_2.mbtiles", "martin/mbtiles/geography-class-png.mbtiles"]

    @Test("gdal_translate GoogleMapsCompatible + gdaladdo: every tile's bytes are the rows GDAL wrote, at their places", arguments: raster)
    func readsGDAL(fixture: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("gdal.gpkg")
        #expect(try GDALTools.run("gdal_translate", ["-q", "-of", "GPKG", "-co", "TILING_SCHEME=GoogleMapsCompatible", Fixtures.path(fixture), path]).status == 0)
        let maxZoom = try #require(try TileStoreLocation(parsing: Fixtures.path(fixture)).openReader().summary(matching: .all).maxZoom)
        #expect(try GDALTools.run("gdaladdo", ["-q", path] + (0..<maxZoom).map { String(2 << $0) }).status == 0)
        let rows = try GDALTools.pythonRows(path, table: "gdal")
        #expect(rows.count >= 5)
        #expect(try GDALTools.ours(path) == rows)
        let verified = try StoreVerifier.verify(TileStoreLocation(parsing: path))
        #expect(verified.problems.isEmpty && verified.tilesChecked == rows.count)
        let zooms = Set(rows.compactMap { Int($0.prefix { $0 != "/" }) })
        #expect(try TileStoreLocation(parsing: path).openReader().summary(matching: .all).zooms.map(\.z) == zooms.sorted())
    }

    @Test("What TileSync writes opens in gdalinfo with the size (bounds on tile edges), zooms and overviews of the source; a tile's window decodes to its pixels")
    func gdalReadsOurs() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("ours.gpkg")
        let source = Fixtures.path("node-mbtiles/plain_1.mbtiles")
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: path))
        let info = try GDALTools.run("gdalinfo", ["-json", path])
        #expect(info.status == 0)
        let json = try JSONParser.parse(Array(info.stdout.utf8))
        #expect(json["size"] == .array([.int(4096), .int(3328)]))
        guard case .array(let bands)? = json["bands"], case .array(let overviews)? = bands.first?["overviews"] else {
            Issue.record("gdalinfo -json has no overviews")
            return
        }
        #expect(overviews.map { $0["size"] } == [(2048, 1664), (1024, 832), (512, 416), (256, 208)].map { JSONValue.array([.int($0.0), .int($0.1)]) })
        #expect(try GDALTools.pythonRows(path, table: "ours") == GDALTools.ours(source))
        let tile = try TileCoordinate(z: 4, x: 5, y: 6)
        let window = directory.file("window.png"), original = directory.file("tile.png")
        let corner = WebMercator.bounds(of: tile)
        let northWest = GeoPackageSpatialReference.metres(longitude: corner.west, latitude: corner.north)
        let southEast = GeoPackageSpatialReference.metres(longitude: corner.east, latitude: corner.south)
        let projectionWindow = [northWest.x, northWest.y, southEast.x, southEast.y].map { String($0) }
        #expect(try GDALTools.run("gdal_translate", ["-q", "-of", "PNG", "-projwin"] + projectionWindow + [path, window]).status == 0)
        let bytes = try #require(try TileStoreLocation(parsing: source).openReader().tile(at: tile))
        try bytes.write(to: URL(fileURLWithPath: original))
        let compare = """
            import sys
            from PIL import Image
            a = Image.open(sys.argv[1]).convert("RGBA"); b = Image.open(sys.argv[2]).convert("RGBA")
            print(a.size, b.size, a.tobytes() == b.tobytes())
            """
        let result = try GDALTools.run("python3", ["-c", compare, window, original])
        #expect(result.stdout == "(256, 256) (256, 256) True\n")
    }

    @Test("MBTiles -> GeoPackage -> PMTiles -> MBTiles keeps every tile's bytes", arguments: [
        "node-mbtiles/plain_1.mbtiles", "mapbox-upload-validate/valid-vectorgzip.mbtiles", "mapbox-upload-validate/valid-webp.mbtiles",
        "martin/mbtiles/world_cities.mbtiles", "martin/mbtiles/geography-class-png.mbtiles",
    ])
    func roundTrip(fixture: String) throws {
        let directory = try TemporaryDirectory()
        let start = try TileStoreLocation(parsing: Fixtures.path(fixture))
        let gpkg = try TileStoreLocation(parsing: directory.file("a.gpkg")), pmtiles = try TileStoreLocation(parsing: directory.file("b.pmtiles"))
        let end = try TileStoreLocation(parsing: directory.file("c.mbtiles"))
        _ = try TileConverter.convert(from: start, to: gpkg)
        _ = try TileConverter.convert(from: gpkg, to: pmtiles)
        _ = try TileConverter.convert(from: pmtiles, to: end)
        let original = try GDALTools.ours(Fixtures.path(fixture))
        #expect(!original.isEmpty)
        #expect(try GDALTools.ours(directory.file("a.gpkg")) == original)
        #expect(try GDALTools.ours(directory.file("c.mbtiles")) == original)
        let copy = try TileStoreLocation(parsing: directory.file("d.mbtiles"))
        _ = try TileConverter.convert(from: start, to: copy)
        func entries(_ location: TileStoreLocation) throws -> [String] {
            try location.openReader().metadata().entries.filter { $0.key != "agg_tiles_hash" }.map { "\($0.key)=\($0.value ?? "NULL")" }.sorted()
        }
        #expect(try entries(gpkg) == entries(copy))
    }
}
