import Foundation
import Testing
@testable import TileSync

@Suite("S3 client against rclone serve s3", .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
struct S3ClientTests {
    @Test func putGetListDeleteKeepBytesExactly() throws {
        let server = try S3TestServer()
        let client = S3Client(configuration: server.configuration(), bucket: "tiles")
        let gzipped = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00,
                            0x86, 0xA6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00])
        _ = try client.send(S3Request("PUT", key: "set/0/0/0.pbf", headers: ["Content-Encoding": "gzip",
                                                                            "Content-Type": "application/x-protobuf"], body: gzipped))
        #expect(FileManager.default.contents(atPath: server.objectPath("set/0/0/0.pbf")) == gzipped)
        #expect(try client.object("set/0/0/0.pbf") == gzipped, "not inflated by the HTTP layer")
        #expect(try client.object("set/nothing") == nil)
        let list = try client.send(S3Request("GET", query: [("list-type", "2"), ("prefix", "set/")]))
        let document = try #require(S3XMLElement.parse(list.body))
        #expect(document.children("Contents").map { $0.value("Key") } == ["set/0/0/0.pbf"])
        #expect(document.children("Contents").first?.value("ETag")?.lowercased().contains(ContentHash(of: gzipped).hex.lowercased()) == true)
        _ = try client.send(S3Request("DELETE", key: "set/0/0/0.pbf"))
        #expect(server.keys().isEmpty)
    }

    @Test func wrongSecretIsAnAuthorizationError() throws {
        let server = try S3TestServer()
        let client = S3Client(configuration: server.configuration(secret: "not-the-secret"), bucket: "tiles")
        do {
            _ = try client.send(S3Request("GET", key: "a"))
            Issue.record("no error")
        } catch {
            #expect(error.isAuthorization)
            #expect(error.key == "object a")
            #expect(!error.description.contains("not-the-secret"))
        }
    }
}
