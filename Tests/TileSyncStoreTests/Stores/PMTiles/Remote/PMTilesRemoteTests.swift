import Foundation
import Testing
@testable import TileSync

@Suite("PMTiles over range requests (rclone serve s3 and serve http)", .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
struct PMTilesRemoteTests {
    /// 341 tiles (zooms 0-4) of 64 KiB each, distinct and incompressible: a 22 MB archive, three upload parts.
    static func largeTiles() -> [Tile] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return GeneratedStore.pyramid(maxZoom: 4).map { tile in
            var bytes = [UInt8](GeneratedStore.bytes(for: tile.coordinate))
            while bytes.count < 65_536 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: state >> 33))
            }
            return Tile(coordinate: tile.coordinate, data: Data(bytes))
        }
    }

    static func archive(on server: S3TestServer, _ key: String) -> TileStoreLocation {
        var options = TileStoreOptions()
        options.s3Endpoint = server.endpoint
        return TileStoreLocation(kind: .pmtiles, address: "s3://tiles/" + key, options: options)
    }

    @Test("A PMTiles written to s3:// goes up in parts, byte for byte, and reads back with range requests")
    func multipartRoundTrip() throws {
        let server = try S3TestServer()
        let directory = try TemporaryDirectory()
        let tiles = Self.largeTiles()
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        let local = directory.file("local.pmtiles")
        _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")), to: try TileStoreLocation(parsing: local))
        let remote = Self.archive(on: server, "maps/world.pmtiles")
        _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")), to: remote)
        #expect(server.keys() == ["maps/world.pmtiles"])
        let uploaded = try #require(FileManager.default.contents(atPath: server.objectPath("maps/world.pmtiles")))
        #expect(uploaded == FileManager.default.contents(atPath: local))
        #expect(uploaded.count > S3MultipartUpload.partSize)
        let counts = server.requestCounts
        #expect(counts["PUT"] == 3, "three parts: \(counts)")
        #expect(counts["POST"] == 2, "create and complete: \(counts)")
        let scratch = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.contains("upload.pmtiles") && $0.contains(".part") }
        #expect(scratch == [], "the part files are deleted")

        let before = server.requestCounts["GET"] ?? 0
        let reader = try remote.openReader()
        #expect(reader.isRemote)
        let cursor = try reader.tiles(matching: .all)
        var read: [TileCoordinate: Data] = [:]
        while let tile = try cursor.next() { read[tile.coordinate] = tile.data }
        #expect(read == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
        let gets = (server.requestCounts["GET"] ?? 0) - before
        #expect(gets == 1 + 22, "the first 16 KiB, then 22 MB in ranges of at most 1 MiB and a tile: \(gets)")

        #expect(throws: TileStoreError.self) { _ = try TileConverter.convert(from: try TileStoreLocation(parsing: local), to: remote) }
        #expect(try reader.tile(at: TileCoordinate(z: 3, x: 2, y: 5)) == tiles.first { $0.coordinate == (try? TileCoordinate(z: 3, x: 2, y: 5)) }?.data)
    }

    @Test("A box reads only the root and the tiles inside it, in merged ranges")
    func boxExtract() throws {
        let server = try S3TestServer()
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 7), to: server.objectPath("planet.pmtiles"))
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 7), to: directory.file("planet.pmtiles"))
        let box = try BoundingBox(west: 13.0, south: 52.3, east: 13.8, north: 52.7)
        var options = TileConverter.Options()
        options.filter = try TileFilter(boundingBox: box)
        let before = server.requestCounts["GET"] ?? 0
        let summary = try TileConverter.convert(from: Self.archive(on: server, "planet.pmtiles"),
                                                to: try TileStoreLocation(parsing: directory.file("berlin.mbtiles")), options: options)
        #expect(summary.tilesWritten == 10)
        let gets = (server.requestCounts["GET"] ?? 0) - before
        #expect(gets <= 1 + 10, "the root and at most one range per tile: \(gets)")
        _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("planet.pmtiles")),
                                      to: try TileStoreLocation(parsing: directory.file("berlin-local.mbtiles")), options: options)
        #expect(try StoreContents.tiles(directory.file("berlin.mbtiles")) == StoreContents.tiles(directory.file("berlin-local.mbtiles")))
    }

    @Test("A sync from a remote archive fetches the tiles it changes once, in merged ranges (not a request each), also when it writes a patch")
    func syncFetchesChangesTogether() throws {
        let server = try S3TestServer()
        let directory = try TemporaryDirectory()
        func padded(_ data: Data) -> Data { data + Data(repeating: UInt8(truncatingIfNeeded: data.count), count: 3_000) }
        let tiles = GeneratedStore.pyramid(maxZoom: 5).map { Tile(coordinate: $0.coordinate, data: padded($0.data)) }
        try GeneratedStore.write(tiles, to: server.objectPath("planet.pmtiles"))
        let remote = Self.archive(on: server, "planet.pmtiles")
        let changed = Set(tiles.map(\.coordinate).filter { $0.z == 5 && $0.x < 4 })
        #expect(changed.count == 128)
        func destination(_ name: String, changing: Set<TileCoordinate>) throws -> TileStoreLocation {
            let older = tiles.map {
                changing.contains($0.coordinate) ? Tile(coordinate: $0.coordinate, data: padded(GeneratedStore.bytes(for: $0.coordinate, salt: "older"))) : $0
            }
            try GeneratedStore.write(older, to: directory.file(name))
            return try TileStoreLocation(parsing: directory.file(name))
        }
        func gets(_ run: () throws -> TileSynchronizer.Summary) throws -> (Int, TileSynchronizer.Summary) {
            let before = server.requestCounts["GET"] ?? 0
            let summary = try run()
            return ((server.requestCounts["GET"] ?? 0) - before, summary)
        }
        let same = try destination("same.mbtiles", changing: [])
        let (nothing, unchanged) = try gets { try TileSynchronizer.sync(from: remote, to: same) }
        #expect(unchanged.replaced == 0)

        let older = try destination("older.mbtiles", changing: changed)
        let (applied, summary) = try gets { try TileSynchronizer.sync(from: remote, to: older) }
        #expect(summary.replaced == 128)
        #expect(applied - nothing <= 8, "the 128 changed tiles (three runs in tile-ID order) in merged ranges: \(applied) GETs against \(nothing) with nothing to change")
        #expect(try StoreComparison.compare(remote, older).isIdentical)

        let patched = try destination("patched.mbtiles", changing: changed)
        var options = TileSynchronizer.Options()
        options.patchPath = directory.file("change.patch.mbtiles")
        let (withPatch, patchSummary) = try gets { try TileSynchronizer.sync(from: remote, to: patched, options: options) }
        #expect(patchSummary.replaced == 128)
        #expect(patchSummary.patch != nil)
        #expect(withPatch - nothing <= 16, "the changed tiles for the patch and for the store, each in merged ranges: \(withPatch) against \(nothing)")
        #expect(try StoreComparison.compare(remote, patched).isIdentical)
    }

    @Test("An archive replaced while it is read is an error, never a mix; a missing one is not found")
    func changedAndMissing() throws {
        let server = try S3TestServer()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 7), to: server.objectPath("planet.pmtiles"))
        let reader = try Self.archive(on: server, "planet.pmtiles").openReader()
        var changed = GeneratedStore.pyramid(maxZoom: 7)
        changed[0] = Tile(coordinate: changed[0].coordinate, data: GeneratedStore.bytes(for: changed[0].coordinate, salt: "v2"))
        let replacement = try TemporaryDirectory()
        try GeneratedStore.write(changed, to: replacement.file("new.pmtiles"))
        let body = try #require(FileManager.default.contents(atPath: replacement.file("new.pmtiles")))
        let client = S3Client(configuration: server.configuration(), bucket: "tiles")
        _ = try client.send(S3Client.putRequest("planet.pmtiles", body: body, md5: ContentHash(of: body), headers: [:]))
        let error = #expect(throws: TileStoreError.self) {
            let cursor = try reader.tiles(matching: .all)
            while try cursor.next() != nil {}
        }
        #expect(error?.description.contains("the archive changed while it was read") == true, "\(String(describing: error))")

        let missing = #expect(throws: TileStoreError.self) { _ = try Self.archive(on: server, "none.pmtiles").openReader() }
        #expect(missing?.kind == .notFound)
        #expect(missing?.description == "s3://tiles/none.pmtiles: no such object at s3://tiles/none.pmtiles")
    }

    @Test("A server whose Content-Range is not `bytes a-b/N` (a dash before the space, a sign, no first byte) is an error naming the archive and the header")
    func malformedContentRange() throws {
        let script = """
            import http.server, sys
            class Answer(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(206)
                    self.send_header("Content-Range", self.path.split("/")[1].replace("_", " ").replace("~", "/"))
                    self.send_header("Content-Length", "16384")
                    self.end_headers()
                    self.wfile.write(bytes(16384))
                def log_message(self, *arguments): pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Answer)
            print("port", server.server_address[1], flush=True)
            server.serve_forever()
            """
        let (process, port) = try ListeningProcess.start(["python3", "-u", "-c", script], logsToStandardError: false) { text in
            text.split(separator: "\n").first { $0.hasPrefix("port ") }.flatMap { Int($0.dropFirst(5)) }
        }
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        for header in ["0-16383_bytes~734281", "bytes_+0-16383~734281", "bytes_*~734281"] {
            let url = "http://127.0.0.1:\(port)/\(header)/x.pmtiles"
            let error = #expect(throws: TileStoreError.self) { _ = try TileStoreLocation(parsing: url).openReader() }
            let sent = header.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "~", with: "/")
            #expect(error?.description == "\(url): bytes 0-16383: the server sent 16384 bytes (Content-Range \(sent)) for the first 16384")
        }
    }

    @Test("http:// archives: every tile as from the file, bad URLs and missing files named")
    func plainHTTP() throws {
        let folder = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 6)
        try GeneratedStore.write(tiles, to: folder.file("world.pmtiles"))
        let server = try HTTPTestServer(serving: folder)
        let location = try TileStoreLocation(parsing: server.url("world.pmtiles"))
        #expect(location.kind.name == "pmtiles")
        let out = try TemporaryDirectory()
        let summary = try TileConverter.convert(from: location, to: try TileStoreLocation(parsing: out.file("world.mbtiles")))
        #expect(summary.tilesWritten == 5461)
        #expect(try StoreContents.tiles(out.file("world.mbtiles")) == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
        let missing = #expect(throws: TileStoreError.self) { _ = try TileStoreLocation(parsing: server.url("gone.pmtiles")).openReader() }
        #expect(missing?.description == "\(server.url("gone.pmtiles")): no such object at \(server.url("gone.pmtiles"))")
        let readOnly = #expect(throws: TileStoreError.self) {
            _ = try TileConverter.convert(from: try TileStoreLocation(parsing: out.file("world.mbtiles")), to: location)
        }
        #expect(readOnly?.kind == .unsupported)
    }
}
