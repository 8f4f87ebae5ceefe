import Foundation
import Testing

/// tippecanoe's tile-join, found on PATH or in the folder `TIPPECANOE` names (built from its
/// source; not installed on CI machines, where these tests are skipped).
enum TileJoin {
    static let path: String? = {
        let folders = [ProcessInfo.processInfo.environment["TIPPECANOE"]].compactMap { $0 }
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return folders.map { $0 + "/tile-join" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}

@Suite("tile-join as the peer: the same layers, features and properties after a layer and field filter",
       .enabled(if: TileJoin.path != nil && PythonScript.hasVectorTiles,
                "tippecanoe's tile-join (TIPPECANOE=its folder) or python's mapbox-vector-tile not found: SKIPPED"))
struct TileJoinPeerTests {
    /// Compares two MBTiles of gzip vector tiles decoded by python: the same tiles, and in each
    /// the same layers holding the same features (geometry and properties, in any order).
    static let compare = """
        import gzip, json, sqlite3, sys, mapbox_vector_tile as m
        def tiles(path):
            return {(z, x, y): d for z, x, y, d in sqlite3.connect(path).execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}
        def content(data):
            raw = gzip.decompress(data) if data[:2] == b"\\x1f\\x8b" else data
            layers = m.decode(raw, default_options={"y_coord_down": True})
            return {name: sorted(json.dumps([f["geometry"], f["properties"]], sort_keys=True) for f in layer["features"]) for name, layer in layers.items()}
        a, b = tiles(sys.argv[1]), tiles(sys.argv[2])
        assert set(a) == set(b), sorted(set(a) ^ set(b))
        for key in a:
            assert content(a[key]) == content(b[key]), (key, content(a[key]), content(b[key]))
        print("same", len(a))
        """

    @Test("--layer places,roads --exclude-field name against tile-join -l places -l roads -x name")
    func sameAsTileJoin() throws {
        let directory = try VectorFilterEndToEndTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try PythonScript.run(VectorFilterEndToEndTests.make, [directory + "/in.mbtiles"]).status == 0)
        let ours = try ToolRunner.run(["convert", "in.mbtiles", "ours.mbtiles", "--layer", "places,roads", "--exclude-field", "name"], in: directory)
        #expect(ours.status == 0, "\(ours.stderr)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(TileJoin.path))
        process.arguments = ["--quiet", "--force", "--no-tile-size-limit", "--output=" + directory + "/peer.mbtiles", "-l", "places", "-l", "roads",
                             "-x", "name", directory + "/in.mbtiles"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let compared = try PythonScript.run(Self.compare, [directory + "/ours.mbtiles", directory + "/peer.mbtiles"])
        #expect(compared.status == 0 && compared.stdout == "same 17\n", "\(compared.stdout)")
    }

    /// Per layer (tiles holding it, features) and per zoom (tiles, bytes) from `tippecanoe-decode
    /// --stats` and from `info --stats --json`, as `name tiles features` and `zN tiles bytes` lines.
    static let statistics = """
        import collections, json, sys
        decoded, ours = json.loads(open(sys.argv[1]).read()), json.loads(open(sys.argv[2]).read())
        def lines(layers, zooms):
            return sorted("%s %d %d" % (n, t, f) for n, (t, f) in layers.items()) + sorted("z%d %d %d" % (z, t, b) for z, (t, b) in zooms.items())
        layers, zooms = collections.defaultdict(lambda: [0, 0]), collections.defaultdict(lambda: [0, 0])
        for tile in decoded:
            zooms[tile["zoom"]][0] += 1
            zooms[tile["zoom"]][1] += tile["bytes"]
            for name, counts in tile["layers"].items():
                layers[name][0] += 1
                layers[name][1] += counts["points"] + counts["lines"] + counts["polygons"]
        theirs = lines(layers, zooms)
        mine = lines({l["name"]: (l["tiles"], l["features"]) for l in ours["layers"]}, {z["zoom"]: (z["tiles"], z["bytes"]) for z in ours["zooms"]})
        assert theirs == mine, (theirs, mine)
        print("\\n".join(mine))
        """

    @Test("info --stats counts per layer and per zoom what tippecanoe-decode --stats counts")
    func statsAsTippecanoeDecode() throws {
        let directory = try VectorFilterEndToEndTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try PythonScript.run(VectorFilterEndToEndTests.make, [directory + "/in.mbtiles"]).status == 0)
        let decode = URL(fileURLWithPath: try #require(TileJoin.path)).deletingLastPathComponent().appendingPathComponent("tippecanoe-decode")
        let process = Process()
        process.executableURL = decode
        process.arguments = ["--stats", directory + "/in.mbtiles"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let decoded = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try decoded.write(to: URL(fileURLWithPath: directory + "/decoded.json"))
        let ours = try ToolRunner.run(["info", "in.mbtiles", "--stats", "--json"], in: directory)
        #expect(ours.status == 0)
        try Data(ours.stdout.utf8).write(to: URL(fileURLWithPath: directory + "/ours.json"))
        let compared = try PythonScript.run(Self.statistics, [directory + "/decoded.json", directory + "/ours.json"])
        #expect(compared.status == 0 && compared.stdout == "places 17 34\nroads 17 17\nwater 21 21\nz0 1 216\nz1 4 870\nz2 16 2984\n",
                "\(compared.stdout)")
    }
}
