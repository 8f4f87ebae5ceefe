import Foundation
import Testing
@testable import TileSync

@Suite("S3 listings: one folder per request, walked in parallel")
struct S3ParallelListerTests {
    /// Uploads the tiles of zooms 0-`maxZoom` (85 for 3) and `metadata.json` under `prefix`.
    static func upload(to server: S3TestServer, prefix: String, maxZoom: Int = 3) throws {
        let writer = try server.location("s3://tiles/\(prefix)").makeWriter()
        try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        for tile in GeneratedStore.pyramid(maxZoom: maxZoom) { try writer.write(tile) }
        try writer.finish()
    }

    /// A server holding the tiles of zooms 0-`maxZoom` under `prefix`, and a client of its bucket.
    static func uploadedServer(prefix: String, maxZoom: Int = 3) throws -> (S3TestServer, S3Client) {
        let server = try S3TestServer()
        try upload(to: server, prefix: prefix, maxZoom: maxZoom)
        return (server, S3Client(configuration: server.configuration(), bucket: "tiles"))
    }

    static func listAll(_ lister: S3ParallelLister) throws -> [S3ObjectSummary] {
        var objects: [S3ObjectSummary] = []
        while let object = try lister.next() { objects.append(object) }
        return objects
    }

    @Test("Every object once, with its MD5; one request per folder: the prefix, 4 zooms and 15 columns",
          .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
    func onePagePerFolder() throws {
        let (server, client) = try Self.uploadedServer(prefix: "walk")
        let before = server.requestCounts["LIST"] ?? 0
        let objects = try Self.listAll(S3ParallelLister(client: client, prefix: "walk/", workers: 4))
        #expect(objects.map(\.key).sorted() == server.keys())
        #expect(objects.count == 86)
        #expect((server.requestCounts["LIST"] ?? 0) - before == 20)
        let tile = try #require(objects.first { $0.key == "walk/3/5/2.png" })
        let bytes = GeneratedStore.bytes(for: try TileCoordinate(z: 3, x: 5, y: 2))
        #expect(tile.size == bytes.count)
        #expect(tile.md5 == ContentHash(of: bytes))
    }

    @Test("Pages of a folder are followed by their continuation tokens: the same objects with 2 entries a page",
          .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
    func continuation() throws {
        let (server, client) = try Self.uploadedServer(prefix: "paged")
        let before = server.requestCounts["LIST"] ?? 0
        let objects = try Self.listAll(S3ParallelLister(client: client, prefix: "paged/", workers: 3, pageSize: 2))
        #expect(objects.map(\.key).sorted() == server.keys())
        #expect((server.requestCounts["LIST"] ?? 0) - before > 20)
    }

    @Test("The walk is depth first: pages waiting stay within a page per level, not a zoom's 16 columns",
          .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
    func boundedWalk() throws {
        let (server, client) = try Self.uploadedServer(prefix: "deep", maxZoom: 4)
        let lister = S3ParallelLister(client: client, prefix: "deep/", workers: 1, pageSize: 2)
        let objects = try Self.listAll(lister)
        #expect(objects.count == 342)
        #expect(Set(objects.map(\.key)).count == 342)
        #expect(lister.mostPagesWaiting >= 3)
        #expect(lister.mostPagesWaiting <= 3 * (2 + 1))
        let parallel = try Self.listAll(S3ParallelLister(client: client, prefix: "deep/", workers: 4, pageSize: 2))
        #expect(parallel.map(\.key).sorted() == objects.map(\.key).sorted())
        #expect(objects.map(\.key).sorted() == server.keys())
    }

    @Test("The whole bucket, and an empty prefix", .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
    func wholeBucketAndNothing() throws {
        let (server, client) = try Self.uploadedServer(prefix: "a")
        #expect(try Self.listAll(S3ParallelLister(client: client, prefix: "", workers: 2)).count == 86)
        #expect(try Self.listAll(S3ParallelLister(client: client, prefix: "none/", workers: 2)).isEmpty)
        #expect(server.keys().count == 86)
    }

    @Test("A missing bucket is the first request's error", .enabled(if: S3TestServer.available, S3TestServer.missingMessage))
    func missingBucket() throws {
        let server = try S3TestServer()
        let lister = S3ParallelLister(client: S3Client(configuration: server.configuration(), bucket: "nobucket"), prefix: "x/", workers: 2)
        do {
            _ = try lister.next()
            Issue.record("no error")
        } catch {
            #expect(error.code == "NoSuchBucket")
            #expect(error.key == "listing of x/")
        }
    }

    @Test("A page that names a next one must move on: a new token and at least one entry")
    func continuationMustMoveOn() throws {
        try S3ParallelLister.checkProgress(of: "p/", sent: nil, next: "t1", entries: 1)
        try S3ParallelLister.checkProgress(of: "p/", sent: "t1", next: "t2", entries: 1000)
        try S3ParallelLister.checkProgress(of: "p/", sent: "t1", next: nil, entries: 0)
        let stuck = S3Error(message: "the server's listing of p/ goes on without giving anything new", key: "listing of p/")
        #expect(throws: stuck) { try S3ParallelLister.checkProgress(of: "p/", sent: "t1", next: "t1", entries: 5) }
        #expect(throws: stuck) { try S3ParallelLister.checkProgress(of: "p/", sent: "t1", next: "t2", entries: 0) }
        #expect(throws: S3Error(message: "the server's listing of the bucket goes on without giving anything new", key: "listing of ")) {
            try S3ParallelLister.checkProgress(of: "", sent: nil, next: "t", entries: 0)
        }
    }

    @Test("Folders a server names are checked: strictly inside the one listed and no longer than a key")
    func subfoldersAreChecked() throws {
        #expect(try S3ParallelLister.subfolders(["p/a/", "p/b c/"], of: "p/") == ["p/a/", "p/b c/"])
        #expect(try S3ParallelLister.subfolders(["a/"], of: "") == ["a/"])
        #expect(throws: S3Error(message: "the server's listing of p/ gives the folder 'q/a/', which is not inside it", key: "listing of p/")) {
            try S3ParallelLister.subfolders(["p/a/", "q/a/"], of: "p/")
        }
        #expect(throws: S3Error(message: "the server's listing of p/ gives the folder 'p/', which is not inside it", key: "listing of p/")) {
            try S3ParallelLister.subfolders(["p/"], of: "p/")
        }
        let long = "p/" + String(repeating: "x", count: 1023) + "/"
        #expect(throws: S3Error(message: "the server's listing of p/ gives a folder of 1026 bytes, longer than any key (1024)", key: "listing of p/")) {
            try S3ParallelLister.subfolders([long], of: "p/")
        }
        #expect(throws: S3Error(message: "the server's listing of the bucket gives the folder '', which is not inside it", key: "listing of ")) {
            try S3ParallelLister.subfolders([""], of: "")
        }
    }
}
