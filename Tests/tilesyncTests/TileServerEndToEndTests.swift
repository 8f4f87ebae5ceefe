import Foundation
import Testing
@testable import TileSync

@Suite("tilesync reading tile servers (nginx on 127.0.0.1)", .enabled(if: NginxServer.available, Comment(rawValue: NginxServer.missingMessage)))
final class TileServerEndToEndTests {
    let directory: String
    let server: NginxServer
    static let key = "s3cr3t-value-42"

    /// A tree of 300 tiles (zooms 0-3 whole, 215 of zoom 4's 256), an HTML page where tile
    /// 2/1/1 should be, and `/api/` answering only with the key header.
    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-tileserver-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try GeneratedSource.write(to: directory + "/tree", count: 300, payload: 40)
        server = try NginxServer(root: directory + "/tree", locations: """
            location = /html/2/1/1.png { default_type text/html; return 200 "<!DOCTYPE html><html>rate limited</html>"; }
            location /html/ { rewrite ^/html/(.*)$ /$1 break; }
            location /api/ { if ($http_x_api_key != "\(Self.key)") { return 403; } rewrite ^/api/(.*)$ /$1 break; }
            location /gz/ { add_header Content-Encoding gzip; }
            """)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func tiles(_ path: String, zooms: ClosedRange<Int> = 0...30) throws -> [String: Data] {
        let cursor = try TileStoreLocation(parsing: directory + "/" + path).openReader().tiles(matching: try TileFilter(minZoom: zooms.lowerBound, maxZoom: zooms.upperBound))
        var result: [String: Data] = [:]
        while let tile = try cursor.next() { result["\(tile.coordinate)"] = tile.data }
        return result
    }

    @Test("a URL template: every tile fetched once with tilesync's User-Agent, holes counted, the MBTiles equal to the tree")
    func template() throws {
        let run = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "4",
                                      "--user-agent", "(tests@example.com)"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Converted 300 tiles"))
        #expect((run.stdout + run.stderr).contains("Note: 341 tiles asked for; the server had no tile for 41 of them (404, 204 or an empty body)"))
        let requests = server.requests
        #expect(requests.count == 341)
        #expect(Set(requests).count == 341)
        #expect(requests.allSatisfy { $0.hasSuffix("\"tilesync/\(TileSyncVersion.current) (tests@example.com)\"") })
        #expect(requests.filter { $0.contains(" 404 ") }.count == 41)
        #expect(try tiles("out.mbtiles") == tiles("tree"))
    }

    @Test("tile --region --source of a tile server: bytes estimated from a sample of requests, with a margin that holds the truth; small zooms asked whole")
    func regionSizeEstimate() throws {
        try Data(#"{"type":"Polygon","coordinates":[[[-180,-85],[180,-85],[180,85],[-180,85],[-180,-85]]]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory + "/world.geojson"))
        let template = server.base + "/{z}/{x}/{y}.png"
        let exact = try ToolRunner.run(["tile", "--region", "world.geojson", "--source", template, "--max-zoom", "1", "--min-zoom", "0"], in: directory)
        #expect(exact.status == 0, "\(exact.stderr)")
        #expect(exact.stdout.hasSuffix("total:    5 tiles; 240 B held, all 5 asked (5 there), asked of \(template)\n"), "\(exact.stdout)")
        #expect(server.requests.count == 5)
        let run = try ToolRunner.run(["tile", "--region", "world.geojson", "--source", template, "--max-zoom", "4", "--min-zoom", "0", "--json"],
                                     in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let source = try JSONParser.parse(Data(run.stdout.utf8))["source"]
        let value = { (name: String) -> Int in source?[name]?.int ?? -1 }
        #expect(value("sampled") == 1 + 4 + 8 + 19 + 75)
        #expect(server.requests.count == 5 + value("sampled"))
        let truth = 300 * 48
        #expect(abs(value("estimated_bytes") - truth) <= value("estimate_margin_bytes"), "\(source)")
        #expect(value("estimate_margin_bytes") > 0 && value("estimate_margin_bytes") < truth / 10)
    }

    @Test("a TileJSON document: its zooms and bounds choose the tiles, relative templates resolve, its fields become metadata")
    func tileJSON() throws {
        let document = """
            {"tilejson":"3.0.0","name":"Test tiles","attribution":"© Test","tiles":["{z}/{x}/{y}.png"],
             "minzoom":1,"maxzoom":3,"bounds":[-180,-85.0511,-0.1,-0.1]}
            """
        try Data(document.utf8).write(to: URL(fileURLWithPath: directory + "/tree/tiles.json"))
        let run = try ToolRunner.run(["convert", server.base + "/tiles.json", "out.mbtiles"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let expected = try tiles("tree", zooms: 1...3).filter { key, _ in
            guard let tile = try? TileCoordinate(parsing: key) else { return false }
            return tile.x < (1 << tile.z) / 2 && tile.y >= (1 << tile.z) / 2
        }
        #expect(try tiles("out.mbtiles") == expected)
        #expect(expected.count == 1 + 4 + 16)
        let info = try ToolRunner.run(["info", "out.mbtiles"], in: directory)
        #expect(info.stdout.contains("  attribution: © Test\n"))
        #expect(info.stdout.contains("  name: Test tiles\n"))
        #expect(server.requests.count == 1 + 21)
    }

    @Test("--region asks for exactly the region's tiles")
    func region() throws {
        try Data(RegionEndToEndTests.france.utf8).write(to: URL(fileURLWithPath: directory + "/france.geojson"))
        let run = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "fr", "--region", "france.geojson", "--max-zoom", "4"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let region = try TileRegion(geoJSONFile: directory + "/france.geojson")
        let cover = Set((0...4).flatMap { z in region.cover(atZoom: z).ranges.flatMap { $0.map { "\($0)" } } })
        #expect(Set(server.requests.compactMap { $0.split(separator: " ").dropFirst().first.map { String($0.dropFirst().dropLast(4)) } }) == cover)
        #expect(server.requests.count == cover.count)
        #expect(try tiles("fr") == tiles("tree").filter { cover.contains($0.key) })
        let count = try ToolRunner.run(["tile", "--region", "france.geojson", "--min-zoom", "4", "--max-zoom", "4",
                                        "--source", server.base + "/{z}/{x}/{y}.png"], in: directory)
        #expect(count.status == 0)
        #expect(count.stdout.hasSuffix("  z4: 2 tiles; 96 B held, all 2 asked (2 there)\ntotal:    2 tiles; 96 B held, all 2 asked (2 there), asked of \(server.base)/{z}/{x}/{y}.png\n"))
        #expect(server.requests.count == cover.count + 2, "the estimate asks for both tiles of zoom 4")
    }

    @Test("API keys: 403 stops at once naming the option; the key is never printed")
    func apiKey() throws {
        let url = server.base + "/api/{z}/{x}/{y}.png"
        let refused = try ToolRunner.run(["convert", url, "no.mbtiles", "--max-zoom", "2", "--header", "X-Api-Key: wrong-key-999"], in: directory)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("Error: \(url): tile "))
        #expect(refused.stderr.hasSuffix(": HTTP 403: Forbidden (the server refuses access: check the API key or token (--header))\n"))
        #expect(!(refused.stdout + refused.stderr).contains("wrong-key-999"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/no.mbtiles"))
        #expect(server.requests.count <= 4)
        let allowed = try ToolRunner.run(["convert", url, "yes.mbtiles", "--max-zoom", "2", "--header", "X-Api-Key: \(Self.key)",
                                          "--header", "X-Other: 1", "--json"], in: directory)
        #expect(allowed.status == 0)
        #expect(!(allowed.stdout + allowed.stderr).contains(Self.key))
        #expect(try tiles("yes.mbtiles") == tiles("tree", zooms: 0...2))
        let malformed = try ToolRunner.run(["convert", url, "bad.mbtiles", "--max-zoom", "2", "--header", "X-Api-Key \(Self.key)"], in: directory)
        #expect(malformed.status == 2)
        #expect(!(malformed.stdout + malformed.stderr).contains(Self.key))
    }

    @Test("vector tiles sent gzipped (Content-Encoding: gzip) are stored as the server sent them, compression gzip recorded")
    func gzippedVectorTiles() throws {
        var sent: [String: Data] = [:]
        for z in 0...2 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let name = Array("t\(z)-\(x)-\(y)".utf8)
                    let layer = Data([0x1A, UInt8(name.count + 2), 0x0A, UInt8(name.count)] + name)
                    var gzipped = Data(try GzipCodec.compress(layer))
                    gzipped[4] = 0x2A // a modification time in the gzip header: re-gzipped bytes would differ
                    try FileManager.default.createDirectory(atPath: directory + "/tree/gz/\(z)/\(x)", withIntermediateDirectories: true)
                    try gzipped.write(to: URL(fileURLWithPath: directory + "/tree/gz/\(z)/\(x)/\(y).pbf"))
                    sent["\(z)/\(x)/\(y)"] = gzipped
                }
            }
        }
        for destination in ["vector.mbtiles", "vector.pmtiles"] {
            let run = try ToolRunner.run(["convert", server.base + "/gz/{z}/{x}/{y}.pbf", destination, "--max-zoom", "2"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try tiles(destination) == sent)
            let reader = try TileStoreLocation(parsing: directory + "/" + destination).openReader()
            #expect(try reader.metadata().format == .pbf)
            if destination.hasSuffix(".pmtiles") { #expect(try reader.declaredTileCompression() == .gzip) }
        }
    }

    @Test("429 with Retry-After, 503, 500 and dropped connections are retried; the copy is whole")
    func faults() throws {
        let proxy = try FaultProxyProcess(upstreamPort: server.port, pattern: "ok,429,ok,503,ok,drop,ok,500,ok,ok")
        let run = try ToolRunner.run(["convert", "http://127.0.0.1:\(proxy.port)/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "3",
                                      "--connections", "4"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try tiles("out.mbtiles") == tiles("tree", zooms: 0...3))
    }

    @Test("A 429 asking to wait 2^63-1 seconds is a failure naming the wait (taken as 2^31 s), not a trap")
    func retryAfterBeyondAnyClock() throws {
        let proxy = try FaultProxyProcess(upstreamPort: server.port, pattern: "429forever")
        let url = "http://127.0.0.1:\(proxy.port)/{z}/{x}/{y}.png"
        let run = try ToolRunner.run(["convert", url, "out.mbtiles", "--max-zoom", "0"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("Error: \(url): tile 0/0/0: "), "\(run.stderr)")
        #expect(run.stderr.contains("it asked to wait 2147483648 s (Retry-After); lower --rate or --connections"), "\(run.stderr)")
    }

    @Test("an HTML page where a tile should be is an invalid tile; --skip-invalid passes it over")
    func htmlBody() throws {
        let url = server.base + "/html/{z}/{x}/{y}.png"
        let failed = try ToolRunner.run(["convert", url, "out.mbtiles", "--max-zoom", "2"], in: directory)
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("Error: \(url): tile 2/1/1: the server sent 40 bytes that are not a png (they start '<!DOCTYPE html><html>rate limited</html>')"))
        let skipped = try ToolRunner.run(["convert", url, "out.mbtiles", "--max-zoom", "2", "--skip-invalid"], in: directory)
        #expect(skipped.status == 0)
        #expect(try tiles("out.mbtiles").count == 20)
    }

    @Test("more tiles than --max-tiles are refused with the count before any request; nothing bounds a template's zooms")
    func limits() throws {
        let url = server.base + "/{z}/{x}/{y}.png"
        let refused = try ToolRunner.run(["convert", url, "out.mbtiles", "--min-zoom", "9", "--max-zoom", "9"], in: directory)
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: \(url): would be asked for 262144 tiles within the filter, more than the 100000 of --max-tiles; stopped before reading them (pass --max-tiles 262144 to allow it)\n")
        let unbounded = try ToolRunner.run(["convert", url, "out.mbtiles"], in: directory)
        #expect(unbounded.status == 1)
        #expect(unbounded.stderr == "Error: \(url): would be asked for more than 100000 tiles, the limit of --max-tiles; stopped before reading them (pass a larger --max-tiles to allow it)\n")
        let small = try ToolRunner.run(["convert", url, "out.mbtiles", "--max-zoom", "4", "--max-tiles", "340"], in: directory)
        #expect(small.status == 1)
        #expect(small.stderr.contains("would be asked for 341 tiles within the filter, more than the 340 of --max-tiles"))
        #expect(server.requests.isEmpty)
    }
}
