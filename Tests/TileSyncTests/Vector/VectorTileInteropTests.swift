import Foundation
import Testing
@testable import TileSync

/// The python `mapbox-vector-tile` package, the decoder these tests hold ours against.
enum PythonVectorTile {
    static let available: Bool = (try? PythonPMTiles.run(["-c", "import mapbox_vector_tile"]))?.status == 0
    static let missingMessage: Comment = "python3 with mapbox-vector-tile not found (pip install mapbox-vector-tile): oracle SKIPPED"

    /// For each uncompressed tile of `paths`, one line a feature as python decodes it:
    /// `layer|extent|version|id|type|key=value;...|x,y x,y ...` (rings without their closing
    /// point). One python process for all of them: importing the package is most of a run.
    static func dump(_ paths: [String]) throws -> [[String]] {
        let script = """
            import sys, mapbox_vector_tile
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
            for path in sys.argv[1:]:
                print("=== tile")
                tile = mapbox_vector_tile.decode(open(path, "rb").read(), default_options={"y_coord_down": True})
                for name, layer in tile.items():
                    for f in layer["features"]:
                        props = ";".join("%s=%s" % (k, text(v)) for k, v in f["properties"].items())
                        coords = " ".join("%d,%d" % (p[0], p[1]) for p in points(f["geometry"]))
                        print("%s|%d|%d|%d|%d|%s|%s" % (name, layer["extent"], layer["version"], f.get("id") or 0,
                              kinds[f["geometry"]["type"]], props, coords))
            """
        let result = try PythonPMTiles.run(["-c", script] + paths)
        #expect(result.status == 0, "python mapbox-vector-tile failed on \(paths.count) tiles")
        var tiles: [[String]] = []
        for line in result.stdout.split(separator: "\n") {
            if line == "=== tile" { tiles.append([]) } else if !tiles.isEmpty { tiles[tiles.count - 1].append(String(line)) }
        }
        #expect(tiles.count == paths.count, "python dumped \(tiles.count) of \(paths.count) tiles")
        return tiles
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
        var ourLines: [[String]] = [], paths: [String] = [], labels: [String] = []
        for (coordinate, data) in tiles {
            let decoded = try VectorTile(decoding: data)
            let path = directory.file("\(coordinate.z)-\(coordinate.x)-\(coordinate.y).mvt")
            let reencoded = directory.file("\(coordinate.z)-\(coordinate.x)-\(coordinate.y)-reencoded.mvt")
            try data.write(to: URL(fileURLWithPath: path))
            try decoded.encoded().write(to: URL(fileURLWithPath: reencoded))
            let ours = try PythonVectorTile.lines(decoded)
            ourLines += [ours, ours]
            paths += [path, reencoded]
            labels += ["tile \(coordinate)", "tile \(coordinate) re-encoded"]
            #expect(VectorTile.problems(in: data) == [], "tile \(coordinate)")
            features += ours.count
        }
        let python = try PythonVectorTile.dump(paths)
        for (index, label) in labels.enumerated() where index < python.count {
            #expect(ourLines[index] == python[index], "\(label)")
        }
        #expect(features == 508)
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
