import Foundation
import Testing
@testable import TileSync

/// Serialized: on Linux, FoundationNetworking spins until the request timeout after a dropped
/// upload connection, which would starve a neighbour's requests.
@Suite("S3 under injected faults (500, 503, dropped connections, slow answers, answers cut off)",
       .enabled(if: S3TestServer.available, S3TestServer.missingMessage), .serialized)
struct S3FaultTests {
    func location(_ proxy: S3FaultProxy, attempts: Int, timeout: TimeInterval = 2, transfers: Int = 8) -> TileStoreLocation {
        var options = TileStoreOptions()
        options.s3Configuration = S3Configuration(endpoint: URL(string: proxy.endpoint)!, region: "us-east-1",
                                                  credentials: S3Configuration.Credentials(accessKeyID: S3TestServer.accessKey,
                                                                              secretAccessKey: S3TestServer.secretKey),
                                                  transfers: transfers, attempts: attempts, timeout: timeout,
                                                  initialBackoff: 0.01, maximumBackoff: 0.05)
        return TileStoreLocation(kind: .s3, address: "s3://tiles/faulty", options: options)
    }

    @Test("Runs complete through the faults with retries, byte for byte")
    func retriesComplete() throws {
        let server = try S3TestServer()
        let proxy = try S3FaultProxy(upstream: server, pattern: "ok,503,ok,ok,500,ok,slow,ok,ok,ok,ok,drop,ok,500,ok,ok,ok", slowSeconds: 3)
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        let source = try TileStoreLocation(parsing: directory.file("a.mbtiles"))
        let bucket = location(proxy, attempts: 10)
        let summary = try TileConverter.convert(from: source, to: bucket)
        #expect(summary.tilesWritten == 85)
        #expect(try StoreComparison.compare(source, bucket).isIdentical)
        #expect(try TileSynchronizer.sync(from: source, to: bucket).isInSync)
        #expect((S3RequestCounters.shared.counts(endpoint: proxy.endpoint)[S3RequestCounters.retry] ?? 0) > 10)
    }

    @Test("A server that sends Content-Encoding: gzip despite response-content-encoding (as moto does): gzipped tiles read back as stored")
    func gzipEncodingKept() throws {
        let server = try S3TestServer()
        let proxy = try S3FaultProxy(upstream: server, pattern: "gzip")
        let directory = try TemporaryDirectory()
        let tiles = try GeneratedStore.pyramid(maxZoom: 2).map { Tile(coordinate: $0.coordinate, data: Data(try GzipCodec.compress($0.data))) }
        try GeneratedStore.write(tiles, to: directory.file("gzipped.mbtiles"))
        let source = try TileStoreLocation(parsing: directory.file("gzipped.mbtiles"))
        let bucket = location(proxy, attempts: 5)
        #expect(try TileConverter.convert(from: source, to: bucket).tilesWritten == 21)
        let reader = try bucket.openReader()
        for tile in tiles {
            #expect(try reader.tile(at: tile.coordinate) == tile.data, "\(tile.coordinate)")
        }
        #expect(try StoreComparison.compare(source, bucket).isIdentical)
    }

    @Test("Without retries a run fails cleanly naming the key and status; a re-run completes")
    func failsCleanlyThenCompletes() throws {
        let server = try S3TestServer()
        let proxy = try S3FaultProxy(upstream: server, pattern: "ok,ok,ok,ok,ok,ok,ok,ok,ok,ok,503")
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 3), to: directory.file("a.mbtiles"))
        let source = try TileStoreLocation(parsing: directory.file("a.mbtiles"))
        do {
            _ = try TileConverter.convert(from: source, to: location(proxy, attempts: 1, transfers: 1))
            Issue.record("no error")
        } catch let error as TileStoreError {
            #expect(error.kind == .io)
            #expect(error.store == "s3://tiles/faulty")
            #expect(error.item?.hasPrefix("object faulty/") == true)
            #expect(error.message == "HTTP 503 SlowDown: injected by the test proxy")
        }
        #expect(server.keys().isEmpty, "the aborted new store was removed")
        _ = try TileConverter.convert(from: source, to: location(proxy, attempts: 10))
        #expect(try StoreComparison.compare(source, location(proxy, attempts: 10)).isIdentical)
    }

    @Test("Answers cut off mid-body are tried again; without retries the error names the object and what curl saw")
    func answersCutOff() throws {
        let server = try S3TestServer()
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 2)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        // Written as files behind the server, not PUT through it: rclone's directory cache can
        // serve a just-PUT object from its temporary file for 2 s (see S3TestServer.serverOptions),
        // which ten quick retries would not outlast.
        _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")),
                                      to: try TileStoreLocation(parsing: server.objectPath("faulty")))
        let proxy = try S3FaultProxy(upstream: server, pattern: "ok,cut,ok,ok")
        let back = directory.file("back")
        _ = try TileConverter.convert(from: location(proxy, attempts: 10), to: try TileStoreLocation(parsing: back))
        #expect(try StoreContents.tiles(back) == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
        #expect((S3RequestCounters.shared.counts(endpoint: proxy.endpoint)[S3RequestCounters.retry] ?? 0) > 0)

        let cutting = try S3FaultProxy(upstream: server, pattern: "cut")
        let size = try #require(FileManager.default.contents(atPath: server.objectPath("faulty/metadata.json"))).count
        #expect(throws: TileStoreError(.io, store: "s3://tiles/faulty", item: "object faulty/metadata.json",
                                       message: "the connection was dropped (transfer closed with \(size - size / 2) bytes remaining"
                                           + " to read) (\(cutting.endpoint))")) {
            try location(cutting, attempts: 1).openReader()
        }
    }
}
