import Foundation
import Testing
@testable import TileSync

@Suite("S3 stores against rclone serve s3", .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
struct S3StoreTests {
    static let kinds = ["a.mbtiles", "a-folder", "a.tar", "a.pmtiles"]

    static func contents(_ reader: any TileReader) throws -> [TileCoordinate: Data] {
        let cursor = try reader.tiles(matching: .all)
        var tiles: [TileCoordinate: Data] = [:]
        while let tile = try cursor.next() { tiles[tile.coordinate] = tile.data }
        return tiles
    }

    @Test("Every kind to s3:// and back, byte for byte", arguments: kinds)
    func roundTrip(kind: String) throws {
        let server = try S3TestServer()
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        let expected = Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) })
        try GeneratedStore.write(tiles, to: directory.file(kind))
        let bucket = server.location("s3://tiles/set/v1")
        let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file(kind)), to: bucket)
        #expect(summary.tilesWritten == 85)
        #expect(server.keys().count == 86)
        #expect(server.keys().contains("set/v1/metadata.json"))
        #expect(FileManager.default.contents(atPath: server.objectPath("set/v1/3/5/2.png")) == GeneratedStore.bytes(for: try TileCoordinate(z: 3, x: 5, y: 2)))
        let reader = try bucket.openReader()
        #expect(try Self.contents(reader) == expected)
        #expect(try reader.metadata()["custom key"] == "kept ✓")
        #expect(try reader.tile(at: TileCoordinate(z: 2, x: 1, y: 3)) == GeneratedStore.bytes(for: try TileCoordinate(z: 2, x: 1, y: 3)))
        #expect(try reader.tile(at: TileCoordinate(z: 4, x: 0, y: 0)) == nil)
        let back = directory.file("back-" + kind)
        _ = try TileConverter.convert(from: bucket, to: try TileStoreLocation(parsing: back))
        #expect(try StoreContents.tiles(back) == expected)
    }

    @Test("Sync by content: a no-op sends no PUT or DELETE, a change uploads only the changed tiles, --delete removes")
    func syncByContent() throws {
        let server = try S3TestServer()
        let directory = try TemporaryDirectory()
        var tiles = GeneratedStore.pyramid(maxZoom: 3)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        let source = try TileStoreLocation(parsing: directory.file("a.mbtiles"))
        let bucket = server.location("s3://tiles/world")
        let first = try TileSynchronizer.sync(from: source, to: bucket)
        #expect(first.added == 85)
        let afterFirst = server.requestCounts
        #expect(afterFirst["PUT"] == 86, "\(afterFirst)")

        let noop = try TileSynchronizer.sync(from: source, to: bucket)
        #expect(noop.isInSync && noop.unchanged == 85)
        let afterNoop = server.requestCounts
        #expect(afterNoop["PUT"] == 86 && afterNoop["DELETE"] == nil)
        #expect((afterNoop["GET"] ?? 0) - (afterFirst["GET"] ?? 0) == 1, "only metadata.json is read")

        let changed = try TileCoordinate(z: 3, x: 1, y: 1)
        tiles = tiles.map { $0.coordinate == changed ? Tile(coordinate: changed, data: GeneratedStore.bytes(for: changed, salt: "v2")) : $0 }
        tiles.removeAll { $0.coordinate == (try? TileCoordinate(z: 3, x: 7, y: 7)) }
        try GeneratedStore.write(tiles, to: directory.file("b.mbtiles"))
        let newSource = try TileStoreLocation(parsing: directory.file("b.mbtiles"))
        let update = try TileSynchronizer.sync(from: newSource, to: bucket)
        #expect(update.replaced == 1 && update.added == 0 && update.deleted == 0 && update.kept == 1)
        #expect(server.requestCounts["PUT"] == 86 + 2, "one tile and metadata.json")
        #expect(FileManager.default.contents(atPath: server.objectPath("world/3/1/1.png")) == GeneratedStore.bytes(for: changed, salt: "v2"))
        #expect(server.keys().contains("world/3/7/7.png"))

        var options = TileSynchronizer.Options()
        options.delete = true
        let deleting = try TileSynchronizer.sync(from: newSource, to: bucket, options: options)
        #expect(deleting.deleted == 1)
        #expect(!server.keys().contains("world/3/7/7.png"))
        #expect(server.requestCounts["DELETE"] == 1)
        #expect(try Self.contents(try bucket.openReader()) == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
    }

    @Test("Objects carry Content-Type, Content-Encoding for gzipped tiles, Cache-Control and a checked Content-MD5")
    func objectHeaders() throws {
        let server = try S3TestServer()
        let gzipped = Data(try GzipCodec.compress(Data("vector tile bytes".utf8)))
        var location = server.location("s3://tiles/v")
        location.options.s3CacheControl = "public, max-age=600"
        let writer = try location.makeWriter()
        let coordinate = try TileCoordinate(z: 1, x: 1, y: 0)
        try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.pbf, .gzip))
        try writer.write(Tile(coordinate: coordinate, data: gzipped))
        try writer.finish()
        let client = S3Client(configuration: server.configuration(), bucket: "tiles")
        let answer = try client.send(S3Request("HEAD", key: "v/1/1/0.pbf"))
        #expect(answer.header("content-type") == "application/vnd.mapbox-vector-tile")
        #expect(answer.header("content-encoding") == "gzip")
        #expect(answer.header("cache-control") == "public, max-age=600")
        #expect(try location.openReader().tile(at: coordinate) == gzipped)
        let wrongMD5 = S3Client.putRequest("v/bad.pbf", body: gzipped, md5: ContentHash(of: Data("other".utf8)), headers: [:])
        #expect(throws: S3Error.self) { try client.send(wrongMD5) }
        #expect(!server.keys().contains("v/bad.pbf"))
    }

    @Test("--compress zstd and brotli into s3://: Content-Encoding zstd and br (brotli known from compression=)", arguments: [
        (TileCompression.zstd, "zstd" as String?), (.brotli, "br"), (.none, nil),
    ])
    func recompressedHeaders(compression: TileCompression, encoding: String?) throws {
        let server = try S3TestServer()
        let directory = try TemporaryDirectory()
        let (source, _) = try GeneratedStore.gzipVectorSource(in: directory)
        let bucket = server.location("s3://tiles/\(compression.rawValue)")
        var options = TileConverter.Options()
        options.transforms.compression = compression
        _ = try TileConverter.convert(from: source, to: bucket, options: options)
        let client = S3Client(configuration: server.configuration(), bucket: "tiles")
        let answer = try client.send(S3Request("HEAD", key: "\(compression.rawValue)/1/1/0.pbf"))
        #expect(answer.header("content-encoding") == encoding)
        #expect(answer.header("content-type") == "application/vnd.mapbox-vector-tile")
    }

    @Test("A prefix with objects is refused without overwrite; an aborted new store leaves nothing")
    func destinationRules() throws {
        let server = try S3TestServer()
        let location = server.location("s3://tiles/new")
        let writer = try location.makeWriter()
        try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        for tile in GeneratedStore.pyramid(maxZoom: 2) { try writer.write(tile) }
        writer.abort()
        #expect(server.keys().isEmpty)
        let complete = try location.makeWriter()
        try complete.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        for tile in GeneratedStore.pyramid(maxZoom: 1) { try complete.write(tile) }
        try complete.finish()
        #expect(server.keys().count == 6)
        #expect(throws: TileStoreError(.destinationExists, store: "s3://tiles/new", message: "already holds objects",
                                       hint: "use --force to upload over them, or sync into it")) {
            try location.makeWriter()
        }
        var settings = TileWriterSettings()
        settings.overwrite = true
        let over = try location.makeWriter(settings)
        try over.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        try over.write(Tile(coordinate: TileCoordinate(z: 0, x: 0, y: 0), data: GeneratedStore.bytes(for: TileCoordinate(z: 0, x: 0, y: 0), salt: "2")))
        over.abort()
        #expect(server.keys().count == 6, "an abort over existing objects deletes nothing")
    }

    @Test("Missing buckets, refused credentials and keys that are not tiles")
    func errors() throws {
        let server = try S3TestServer()
        #expect(throws: TileStoreError(.notFound, store: "s3://nobucket/x",
                                       message: "no such bucket 'nobucket' at \(server.endpoint)")) {
            try server.location("s3://nobucket/x").openReader()
        }
        #expect(throws: TileStoreError(.notFound, store: "s3://tiles/empty", message: "no objects under this prefix")) {
            try server.location("s3://tiles/empty").openReader()
        }
        #expect(throws: TileStoreError(.notATileStore, store: "s3://A_B/x",
                                       message: "'A_B' is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)")) {
            try server.location("s3://A_B/x").openReader()
        }
        let client = S3Client(configuration: server.configuration(), bucket: "tiles")
        _ = try client.send(S3Request("PUT", key: "odd/2/1/notes.txt", body: Data("x".utf8)))
        _ = try client.send(S3Request("PUT", key: "odd/2/1/3.png", body: Data([0x89, 0x50])))
        let reader = try server.location("s3://tiles/odd").openReader()
        let cursor = try reader.tiles(matching: .all)
        #expect(try cursor.next()?.coordinate.description == "2/1/3")
        #expect(try cursor.next() == nil)
        #expect(cursor.skipped.count == 1)
        #expect(cursor.skipped.named.first?.item == "object odd/2/1/notes.txt")
    }
}

@Suite("Patch files with s3:// stores", .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
struct S3PatchTests {
    @Test("A patch made from an s3:// base turns it into the target object by object: only changed tiles are sent")
    func patchObjectStorage() throws {
        let server = try S3TestServer()
        let stores = try KindStores()
        let (local, target) = try PatchPairTests.stores(stores, base: "mbtiles", target: "dir")
        let bucket = server.location("s3://tiles/app")
        _ = try TileConverter.convert(from: local, to: bucket)
        let patch = stores.directory.file("patch.mbtiles")
        let made = try TilePatcher.makePatch(from: bucket, to: target, writingTo: patch)
        #expect((made.added, made.replaced, made.deleted) == (2, 2, 2))
        let before = server.requestCounts
        let applied = try TilePatcher.apply(patch: patch, to: bucket)
        #expect((applied.added, applied.replaced, applied.deleted) == (2, 2, 2) && applied.warnings.isEmpty)
        let after = server.requestCounts
        #expect((after["PUT"] ?? 0) - (before["PUT"] ?? 0) == 5, "4 tiles and metadata.json: \(after)")
        #expect((after["DELETE"] ?? 0) - (before["DELETE"] ?? 0) == 1, "one DeleteObjects batch for both")
        #expect(try StoreComparison.compare(target, bucket).isIdentical)
        #expect(try TilePatcher.apply(patch: patch, to: bucket).alreadyApplied)
    }
}
