import Foundation
import Testing

/// Runs a python script (mapbox-vector-tile as the independent decoder) with arguments.
enum PythonScript {
    static let hasVectorTiles: Bool = (try? run("import mapbox_vector_tile", []))?.status == 0

    static func run(_ script: String, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

@Suite("tilesync convert and sync with --layer, --exclude-layer, --include-field, --exclude-field",
       .enabled(if: PythonScript.hasVectorTiles, "python3 with mapbox-vector-tile not found (pip install mapbox-vector-tile): SKIPPED"))
struct VectorFilterEndToEndTests {
    /// 21 gzip tiles (zooms 0-2) made by python's encoder: three layers in most, `water` alone
    /// in the tiles of column 0 at zoom 2; `json` metadata with vector_layers and tilestats.
    static let make = """
        import gzip, json, sqlite3, sys, mapbox_vector_tile as m
        db = sqlite3.connect(sys.argv[1])
        db.executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);")
        fields = {"places": {"name": "String", "rank": "Number", "kind": "String"}, "roads": {"class": "String", "name": "String", "lanes": "Number"},
                  "water": {"class": "String", "area": "Number"}}
        meta = {"vector_layers": [{"id": k, "fields": v} for k, v in fields.items()],
                "tilestats": {"layerCount": 3, "layers": [{"layer": k, "attributeCount": len(v), "attributes": [{"attribute": a} for a in v]} for k, v in fields.items()]}}
        db.executemany("INSERT INTO metadata VALUES (?, ?)", [("name", "layers"), ("format", "pbf"), ("json", json.dumps(meta))])
        for z in range(3):
            for x in range(2 ** z):
                for y in range(2 ** z):
                    water = {"name": "water", "features": [{"geometry": "POLYGON ((0 0, %d 0, %d 90, 0 90, 0 0))" % (100 + x, 100 + y), "properties": {"class": "lake", "area": 1.5 * (x + 1)}}]}
                    layers = [water]
                    if not (z == 2 and x == 0):
                        layers = [{"name": "places", "features": [{"geometry": "POINT (%d %d)" % (10 + x, 20 + y), "properties": {"name": "p%d%d%d" % (z, x, y), "rank": y, "kind": "town"}, "id": 7 + x},
                                                                  {"geometry": "POINT (5 5)", "properties": {"name": "q", "kind": "city"}}]},
                                  {"name": "roads", "features": [{"geometry": "LINESTRING (0 0, %d 50, 100 %d)" % (x * 10, y * 10), "properties": {"class": "primary", "name": "E%d" % y, "lanes": 2}}]}, water]
                    data = gzip.compress(m.encode(layers, default_options={"y_coord_down": True}), mtime=0)
                    db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, 2 ** z - 1 - y, data))
        db.commit()
        """

    /// Compares every tile of the output with the input filtered in python; prints `ok N`.
    static let check = """
        import gzip, sqlite3, sys, mapbox_vector_tile as m
        source, result, keep, drop_fields = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4].split(",")
        def tiles(path):
            return {(z, x, y): d for z, x, y, d in sqlite3.connect(path).execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}
        a, b = tiles(source), tiles(result)
        expected = {}
        for key, data in a.items():
            layers = {name: layer for name, layer in m.decode(gzip.decompress(data), default_options={"y_coord_down": True}).items() if name in keep}
            for layer in layers.values():
                for f in layer["features"]:
                    f["properties"] = {k: v for k, v in f["properties"].items() if k not in drop_fields}
            if layers: expected[key] = layers
        assert set(expected) == set(b), (sorted(set(expected) ^ set(b)))
        for key, data in b.items():
            assert data[:2] == b"\\x1f\\x8b", key
            got = m.decode(gzip.decompress(data), default_options={"y_coord_down": True})
            assert got == expected[key], (key, got, expected[key])
        print("ok", len(b))
        """

    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "tilesync-layers-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("Kept layers and fields equal python's decode of the source filtered alike; tiles left empty are counted, not written")
    func convert() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try PythonScript.run(Self.make, [directory + "/in.mbtiles"]).status == 0)
        let run = try ToolRunner.run(["convert", "in.mbtiles", "out.mbtiles", "--layer", "places", "--layer", "roads,nowhere",
                                      "--exclude-field", "name", "--json"], in: directory)
        #expect(run.status == 0)
        #expect(run.stdout.contains(#""tiles":17,"#) && run.stdout.contains(#""tiles_without_layers":4,"#))
        #expect(run.stderr.contains("no tile holds a layer 'nowhere' (named by the layer filter)") || run.stdout.contains("no tile holds a layer 'nowhere'"))
        let checked = try PythonScript.run(Self.check, [directory + "/in.mbtiles", directory + "/out.mbtiles", "places,roads", "name"])
        #expect(checked.status == 0 && checked.stdout == "ok 17\n")
        let json = try ToolRunner.run(["meta", "out.mbtiles", "json"], in: directory).stdout
        #expect(json == #"{"vector_layers":[{"id":"places","fields":{"rank":"Number","kind":"String"}},{"id":"roads","fields":{"class":"String","lanes":"Number"}}],"tilestats":{"layerCount":2,"layers":[{"layer":"places","attributeCount":2,"attributes":[{"attribute":"rank"},{"attribute":"kind"}]},{"layer":"roads","attributeCount":2,"attributes":[{"attribute":"class"},{"attribute":"lanes"}]}]}}"# + "\n")
    }

    @Test("A filter that removes nothing writes the source's bytes; --keep-empty-tiles writes tiles without layers; sync filters alike, also folder to new folder")
    func passThroughAndSync() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try PythonScript.run(Self.make, [directory + "/in.mbtiles"]).status == 0)
        #expect(try ToolRunner.run(["convert", "in.mbtiles", "all.pmtiles", "--exclude-layer", "rivers"], in: directory).status == 0)
        #expect(try ToolRunner.run(["verify", "in.mbtiles", "all.pmtiles"], in: directory).stdout == "in.mbtiles and all.pmtiles hold the same 21 tiles\n")
        let kept = try ToolRunner.run(["convert", "in.mbtiles", "kept.mbtiles", "--layer", "places", "--keep-empty-tiles", "--json"], in: directory)
        #expect(kept.status == 0 && kept.stdout.contains(#""tiles":21,"#))
        #expect(try ToolRunner.run(["sync", "in.mbtiles", "mirror", "--exclude-layer", "water", "--exclude-field", "roads:lanes,*:kind"],
                                   in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", "mirror", "mirror.mbtiles"], in: directory).status == 0)
        let checked = try PythonScript.run(Self.check, [directory + "/in.mbtiles", directory + "/mirror.mbtiles", "places,roads", "lanes,kind"])
        #expect(checked.status == 0 && checked.stdout == "ok 17\n")
        let into = try ToolRunner.run(["sync", "in.mbtiles", "new.mbtiles", "--layer", "places,roads,nowhere", "--exclude-field", "kind,lanes"],
                                      in: directory)
        #expect(into.status == 0)
        #expect(into.stdout.contains("Layer filter: 4 tiles left without a layer were not written\n"), "\(into.stdout)")
        #expect(into.stderr == "Note: no tile holds a layer 'nowhere' (named by the layer filter)\n", "\(into.stderr)")
        let synced = try PythonScript.run(Self.check, [directory + "/in.mbtiles", directory + "/new.mbtiles", "places,roads", "lanes,kind"])
        #expect(synced.status == 0 && synced.stdout == "ok 17\n")
        for arguments in [["convert", "in.mbtiles", "tree"], ["sync", "tree", "tree2", "--layer", "places,roads", "--exclude-field", "kind,lanes"],
                          ["convert", "tree2", "tree2.mbtiles"]] {
            #expect(try ToolRunner.run(arguments, in: directory).status == 0, "\(arguments)")
        }
        let again = try ToolRunner.run(["sync", "in.mbtiles", "new.mbtiles", "--layer", "places,roads,nowhere", "--exclude-field", "kind,lanes",
                                        "--json"], in: directory)
        #expect(again.status == 0 && again.stdout.contains(#""tiles_without_layers":0"#), "a rerun filters nothing again: \(again.stdout)")
        #expect(again.stdout.contains(#""notes":["the source's vector_layers lists no layer 'nowhere' (named by the layer filter)"]"#),
                "a rerun looks into no tile, so it says what the source's metadata says: \(again.stdout)")
        let folders = try PythonScript.run(Self.check, [directory + "/in.mbtiles", directory + "/tree2.mbtiles", "places,roads", "lanes,kind"])
        #expect(folders.status == 0 && folders.stdout == "ok 17\n")
        let bad = try ToolRunner.run(["convert", "in.mbtiles", "x.mbtiles", "--include-field", "roads:"], in: directory)
        #expect(bad.status == 2 && bad.stderr.hasPrefix("Error: --include-field: 'roads:' is not [LAYER:]FIELD: an empty field name after ':'"))
    }
}
