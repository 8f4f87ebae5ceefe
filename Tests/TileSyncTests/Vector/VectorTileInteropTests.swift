import Foundation
import Testing
@testable import TileSync

/// The python `mapbox-vector-tile` package, the decoder these tests hold ours against.
enum PythonVectorTile {
    static let available: Bool = (try? PythonPMTiles.run(["-c", "import mapbox_vector_tile"]))?.status == 0
    static let missingMessage: Comment = "python3 with mapbox-vector-tile not found (pip install mapbox-vector-tile): oracle SKIPPED"

    /// One line a feature, as python decodes the uncompressed tile at `path`:
    /// `layer|extent|version|id|type|key=value;...|x,y x,y ...` (rings without their closing point).
    static func dump(_ path: String) throws -> [String] {
        let script = """
            import sys, mapbox_vector_tile
            tile = mapbox_vector_tile.decode(open(sys.argv[1], "rb").read(), default_options={"y_coord_down": True})
            kinds = {"Point": 1, "MultiPoint": 1, "LineString": 2, "MultiLineString": 2, "Polygon": 3, "MultiPolygon": 3}
            def text(v):
                if isinstance(v, bool): return "true" if v else "false"
                return str(v) if not isinstance(v, float) else repr(v)
            def points(g):
                t, c = g["type"], g["coordinates"]
                if t == "Point": return [c]
                if t in ("MultiPoint", "LineString"): return c
                if t == "MultiLineString": return [p for line in c for p in line]
                rings = c if t == "Polygon" else [r for poly in c for r in poly]
                return [p for r in rings for p in r[:-1]]
            for name, layer in tile.items():
                for f in layer["features"]:
                    props = ";".join("%s=%s" % (k, text(v)) for k, v in f["properties"].items())
                    coords = " ".join("%d,%d" % (p[0], p[1]) for p in points(f["geometry"]))
                    print("%s|%d|%d|%d|%d|%s|%s" % (name, layer["extent"], layer["version"], f.get("id") or 0,
                          kinds[f["geometry"]["type"]], props, coords))
            """
        let result = try PythonPMTiles.run(["-c", script, path])
        #expect(result.status == 0, "python mapbox-vector-tile failed on \(path)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The same lines from our decoder.
    static func lines(_ tile: VectorTile) throws -> [String] {
        var lines: [String] = []
        for layer in tile.layers {
            for feature in layer.features {
                let properties = layer.properties(of: feature).map { pair -> String in
                    switch pair.value {
                    case .float(let number): "\(pair.key)=\(Double(number))"
                    default: "\(pair.key)=\(pair.value)"
                    }
                }
                let points = try feature.rings().flatMap { $0 }.map { "\($0.x),\($0.y)" }
                lines.append("\(layer.name)|\(layer.extent)|\(layer.version)|\(feature.id ?? 0)|\(feature.type.rawValue)|"
                             + properties.joined(separator: ";") + "|" + points.joined(separator: " "))
            }
        }
        return lines
    }
}

@Suite("Vector tiles against python's mapbox-vector-tile on real tippecanoe tiles")
struct VectorTileInteropTests {
    /// Every tile of an MBTiles fixture, uncompressed.
    static func tiles(_ relative: String) throws -> [(TileCoordinate, Data)] {
        let reader = try TileStoreLocation(parsing: Fixtures.path(relative)).openReader()
        let cursor = try reader.tiles(matching: .all)
        var tiles: [(TileCoordinate, Data)] = []
        while let tile = try cursor.next() {
            let data = tile.data.starts(with: [0x1F, 0x8B]) || tile.data.starts(with: [0x78])
                ? Data(try GzipCodec.decompress(tile.data, limit: 64 << 20)) : tile.data
            tiles.append((tile.coordinate, data))
        }
        return tiles
    }

    @Test("Every tile of world_cities decodes to what python decodes, and re-encodes to a tile python reads the same",
          .enabled(if: Fixtures.available, Fixtures.missingMessage), .enabled(if: PythonVectorTile.available, PythonVectorTile.missingMessage))
    func worldCities() throws {
        let directory = try TemporaryDirectory()
        let tiles = try Self.tiles("martin/mbtiles/world_cities.mbtiles")
        #expect(tiles.count == 196)
        var features = 0
        for (coordinate, data) in tiles.prefix(40) + tiles.suffix(10) {
            let decoded = try VectorTile(decoding: data)
            let path = directory.file("\(coordinate.z)-\(coordinate.x)-\(coordinate.y).mvt")
            try data.write(to: URL(fileURLWithPath: path))
            let ours = try PythonVectorTile.lines(decoded)
            #expect(ours == (try PythonVectorTile.dump(path)), "tile \(coordinate)")
            try decoded.encoded().write(to: URL(fileURLWithPath: path))
            #expect(ours == (try PythonVectorTile.dump(path)), "tile \(coordinate) re-encoded")
            #expect(VectorTile.problems(in: data) == [], "tile \(coordinate)")
            features += ours.count
        }
        #expect(features == 319)
    }

    @Test("Every vector tile of the fixtures decodes without a problem, or its problem is one of the known defects",
          .enabled(if: Fixtures.available, Fixtures.missingMessage))
    func fixtureTiles() throws {
        var decodedTiles = 0
        for relative in ["martin/mbtiles/world_cities.mbtiles", "martin/mbtiles/uncompressed_mvt.mbtiles",
                         "mapbox-tile-copy/valid.mbtiles", "mapbox-upload-validate/valid-vectorgzip.mbtiles"] {
            for (coordinate, data) in try Self.tiles(relative) {
                #expect(VectorTile.problems(in: data) == [], "\(relative) tile \(coordinate)")
                let tile = try VectorTile(decoding: data)
                #expect(try VectorTile(decoding: tile.encoded()) == tile)
                decodedTiles += 1
            }
        }
        #expect(decodedTiles == 196 + 1 + 21 + 1)
    }
}
