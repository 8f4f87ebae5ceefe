import Foundation
import Testing
@testable import TileSync

@Suite("tilesync reading tile servers over HTTPS and HTTP/2 (nginx with a certificate made by openssl)",
       .enabled(if: NginxServer.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
                Comment(rawValue: NginxServer.missingMessage + " (or openssl missing)")))
final class TileServerHTTP2EndToEndTests {
    let directory: String
    let server: NginxServer

    /// 300 tiles (zooms 0-3 whole, 215 of zoom 4) served over HTTPS with HTTP/2.
    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-http2-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try GeneratedSource.write(to: directory + "/tree", count: 300, payload: 40)
        server = try NginxServer(root: directory + "/tree", tls: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func tiles(_ path: String) throws -> [String: Data] {
        let cursor = try TileStoreLocation(parsing: directory + "/" + path).openReader().tiles(matching: try TileFilter(minZoom: 0, maxZoom: 30))
        var result: [String: Data] = [:]
        while let tile = try cursor.next() { result["\(tile.coordinate)"] = tile.data }
        return result
    }

    @Test("by default one HTTP/2 connection carries every request; the tiles are exact and the protocol is named")
    func oneConnection() throws {
        let run = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "4",
                                      "--cacert", server.certificate], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Converted 300 tiles"))
        #expect(try tiles("out.mbtiles") == tiles("tree"))
        let logged = server.connections
        #expect(logged.count == 341)
        #expect(Set(logged).count == 1, "connections: \(Set(logged).sorted())")
        #expect(logged.allSatisfy { $0.hasSuffix(" HTTP/2.0") })
        #expect((run.stdout + run.stderr).contains("Note: 127.0.0.1:\(server.port) answered over HTTP/2: 1 connection opened, up to 32 requests at once on one"))
    }

    @Test("a PMTiles archive over HTTPS and HTTP/2 is read by ranges on one connection, tile for tile")
    func remoteArchive() throws {
        try GeneratedSource.write(to: directory + "/tree/big.pmtiles", count: 300, payload: 20_000)
        let run = try ToolRunner.run(["convert", server.base + "/big.pmtiles", "copy.mbtiles", "--quiet"], in: directory,
                                     environment: ["SSL_CERT_FILE": server.certificate, "CURL_CA_BUNDLE": ""])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try tiles("copy.mbtiles") == tiles("tree/big.pmtiles"))
        let logged = server.connections
        #expect(logged.count >= 2, "a header and directories or tiles: \(logged.count) ranges")
        #expect(Set(logged).count == 1, "connections: \(Set(logged).sorted())")
        #expect(logged.allSatisfy { $0.hasSuffix(" HTTP/2.0") })
    }

    @Test("SSL_CERT_FILE trusts the private CA as --cacert does; --streams 4 still uses one connection")
    func environmentTrust() throws {
        let run = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "2", "--streams", "4"],
                                     in: directory, environment: ["SSL_CERT_FILE": server.certificate, "CURL_CA_BUNDLE": ""])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Converted 21 tiles"))
        #expect(Set(server.connections).count == 1)
        #expect((run.stdout + run.stderr).contains("up to 4 requests at once on one"))
    }

    @Test("a certificate no trusted authority signed stops the read naming the server; nothing is written")
    func untrusted() throws {
        let run = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "2"],
                                     in: directory, environment: ["SSL_CERT_FILE": "", "CURL_CA_BUNDLE": ""])
        #expect(run.status == 1)
        #expect(run.stderr.contains("127.0.0.1:\(server.port)"), "\(run.stderr)")
        #expect(run.stderr.lowercased().contains("certificate"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.mbtiles"))
        #expect(server.connections.isEmpty)
    }

    @Test("--cacert names a file that must exist")
    func missingCertificateFile() throws {
        let run = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--cacert", "nope.pem"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("cannot read the certificate file 'nope.pem'"), "\(run.stderr)")
    }
}

@Suite("tilesync reading tile servers over HTTP/1.1: connections are the requests on the wire",
       .enabled(if: NginxServer.available, Comment(rawValue: NginxServer.missingMessage)))
struct TileServerHTTP1ConnectionTests {
    @Test("a plain HTTP server gets 2 connections by default; the protocol is named")
    func connections() throws {
        let directory = NSTemporaryDirectory() + "tilesync-http1-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try GeneratedSource.write(to: directory + "/tree", count: 300, payload: 40)
        let server = try NginxServer(root: directory + "/tree")
        let run = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "4"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Set(server.connections).count == 2)
        #expect(server.connections.allSatisfy { $0.hasSuffix(" HTTP/1.1") })
        #expect((run.stdout + run.stderr).contains("Note: 127.0.0.1:\(server.port) answered over HTTP/1.1: 2 connections opened, one request at a time on each"))
    }
}
