import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TileSync

@Suite("Tile servers: URL templates, TileJSON, answers")
struct TileServerUnitTests {
    @Test("templates expand z, x, y, -y, q and s; one without a tile or with {s} and no subdomains is refused")
    func templates() throws {
        let tile = try TileCoordinate(z: 11, x: 327, y: 791)
        let xyz = try TileURLTemplate("https://{s}.tile.example.com/{z}/{x}/{y}.png?key=1", subdomains: ["a", "b", "c"], store: "t")
        #expect(xyz.url(for: tile) == "https://c.tile.example.com/11/327/791.png?key=1")
        #expect(xyz.declaredFormat == .png)
        let tms = try TileURLTemplate("http://h/{z}/{x}/{-y}.pbf", subdomains: [], store: "t")
        #expect(tms.url(for: tile) == "http://h/11/327/1256.pbf")
        #expect(tms.declaredFormat == .pbf)
        let quadkey = try TileURLTemplate("http://h/tiles/{q}.jpeg", subdomains: [], store: "t")
        #expect(quadkey.url(for: tile) == "http://h/tiles/\(tile.quadkey).jpeg")
        #expect(quadkey.declaredFormat == .jpeg)
        #expect(try TileURLTemplate("http://h/{z}/{x}/{y}", subdomains: [], store: "t").declaredFormat == nil)
        #expect(throws: TileStoreError.self) { try TileURLTemplate("http://h/{z}/{x}.png", subdomains: [], store: "t") }
        do {
            _ = try TileURLTemplate("http://{s}.h/{z}/{x}/{y}.png", subdomains: [], store: "t")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "t: the URL has {s} but no subdomains were given (pass --subdomains abc (each letter one subdomain) or a,b,c)")
        }
        #expect(TileURLTemplate.subdomains("abc") == ["a", "b", "c"])
        #expect(TileURLTemplate.subdomains("t1, t2") == ["t1", "t2"])
    }

    @Test("TileJSON: templates resolved against the document, TMS rows, zooms, bounds and metadata")
    func tileJSON() throws {
        let document = """
            {"tilejson":"3.0.0","name":"n","attribution":"© A","scheme":"tms","tiles":["tiles/{z}/{x}/{y}.mvt","https://b.example.com/{z}/{x}/{y}.mvt"],
             "minzoom":2,"maxzoom":9,"bounds":[5.9,45.8,10.5,47.8],"vector_layers":[{"id":"roads","fields":{}}]}
            """
        let location = try TileStoreLocation(parsing: "https://example.com/maps/tiles.json")
        let options = try TileServerOptions(TileStoreOptions(), store: "t")
        let endpoint = try TileServerEndpoint.tileJSON(Data(document.utf8), location: location, options: options)
        let tile = try TileCoordinate(z: 3, x: 4, y: 2)
        #expect(endpoint.url(for: tile)?.absoluteString == "https://example.com/maps/tiles/3/4/5.mvt")
        #expect(endpoint.url(for: try TileCoordinate(z: 3, x: 4, y: 3))?.absoluteString == "https://b.example.com/3/4/4.mvt")
        #expect(endpoint.zooms == 2...9)
        #expect(endpoint.bounds?.description == "5.9,45.8,10.5,47.8")
        #expect(endpoint.metadata["attribution"] == "© A")
        #expect(endpoint.metadata["format"] == "pbf")
        #expect(endpoint.metadata["tiles"] == nil && endpoint.metadata["scheme"] == nil)
        #expect(endpoint.metadata["vector_layers"] == #"[{"id":"roads","fields":{}}]"#)
        #expect(throws: TileStoreError.self) {
            try TileServerEndpoint.tileJSON(Data(#"{"name":"no tiles","minzoom":1e999}"#.utf8), location: location, options: options)
        }
        let hostile = #"{"tiles":["http://h/{z}/{x}/{y}.png"],"minzoom":-5,"maxzoom":1e300}"#
        #expect(try TileServerEndpoint.tileJSON(Data(hostile.utf8), location: location, options: options).zooms == nil)
    }

    @Test("answers: 404/204/empty are no tile, 401/403 stop, 429/503 wait as Retry-After says, a decoded gzip body is gzipped again")
    func answers() throws {
        func judge(_ status: Int, _ headers: [String: String] = [:], body: Data = Data([1])) throws -> HTTPAttemptOutcome<TileServerAnswer, HTTPError> {
            let response = try #require(HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers))
            return TileServerClient.judge(response, body: body)
        }
        for status in [404, 204, 410] {
            guard case .answer(.noTile(status, TileServerValidators())) = try judge(status) else { Issue.record("\(status)"); continue }
        }
        guard case .answer(.noTile(200, _)) = try judge(200, body: Data()) else { Issue.record("empty 200"); return }
        let validating = ["ETag": "\"e1\"", "Last-Modified": "Sun, 09 Sep 2001 01:46:40 GMT", "Cache-Control": "no-cache"]
        guard case .answer(.tile(Data([1]), let validators)) = try judge(200, validating) else { Issue.record("200"); return }
        #expect(validators.etag == "\"e1\"" && validators.lastModified == "Sun, 09 Sep 2001 01:46:40 GMT")
        #expect(try #require(validators.expiry) <= Int64(Date().timeIntervalSince1970))
        guard case .answer(.notModified(let refreshed)) = try judge(304, ["Cache-Control": "max-age=600"]) else { Issue.record("304"); return }
        #expect(refreshed.etag == nil && refreshed.expiry.map { $0 > Int64(Date().timeIntervalSince1970) + 590 } == true)
        guard case .failure(let forbidden, false, nil) = try judge(403) else { Issue.record("403"); return }
        #expect(forbidden.description == "HTTP 403: Forbidden")
        guard case .failure(_, true, 7) = try judge(429, ["Retry-After": "7"]) else { Issue.record("429"); return }
        guard case .failure(_, true, nil) = try judge(502) else { Issue.record("502"); return }
        guard case .failure(_, false, nil) = try judge(400) else { Issue.record("400"); return }
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        #expect(HTTPRetryPolicy.retryAfter("Sun, 09 Sep 2001 01:46:50 GMT", now: now) == 10)
        #expect(HTTPRetryPolicy.retryAfter("soon", now: now) == nil)
        let vector = Data([0x1A, 0x03, 0x0A, 0x01, 0x61])
        let restored = TileServerClient.restoredEncoding(vector, contentEncoding: "gzip")
        #expect(restored.starts(with: [0x1F, 0x8B]))
        #expect(try GzipCodec.decompress(restored, limit: 100) == [UInt8](vector))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(TileServerClient.restoredEncoding(png, contentEncoding: "gzip") == png)
    }

    @Test("a plan lists the region's or box's tiles zoom by zoom and counts without listing; a shard keeps its part")
    func plan() throws {
        let box = try BoundingBox(west: 13.08, south: 52.33, east: 13.77, north: 52.68)
        let filter = try TileFilter(minZoom: 8, maxZoom: 10, boundingBox: box)
        let tiles = Array(TileServerPlan(filter: filter))
        #expect(tiles.map(\.description) == (8...10).flatMap { z in filter.ranges(atZoom: z).flatMap { $0.map(\.description) } })
        #expect(tiles.count == 12)
        #expect(TileServerPlan(filter: filter).count(upTo: 100) == (12, true))
        #expect(TileServerPlan(filter: try TileFilter(maxZoom: 30)).count(upTo: 1000) == (1365, false))
        let shard = try TileFilter(minZoom: 0, maxZoom: 6, shard: TileShard(index: 1, count: 3))
        let parts = Array(TileServerPlan(filter: shard))
        #expect(parts.allSatisfy { shard.contains($0) })
        #expect(parts.count == (0...6).reduce(0) { total, z in total + ((try? TileRange.world(z: z)).map { Array($0) } ?? []).filter { shard.contains($0) }.count })
    }
}
