import Foundation
import Testing

@Suite("tilesync with GeoPackages: tables named with #, info listing them, sync, meta, serve")
final class GeoPackageEndToEndTests {
    static let world = MergeEndToEndTests.world
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-gpkg-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test("Two tables in one file: info lists them, a read without a table name says which there are, each round-trips, sync and meta change one")
    func tables() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "field.gpkg#base", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "field.gpkg#overlay", "--max-zoom", "1", "--quiet"], in: directory).status == 0)
        let info = try ToolRunner.run(["info", "field.gpkg"], in: directory)
        #expect(info.status == 0)
        #expect(info.stdout == """
            field.gpkg holds 2 tile stores; name one to read it:
              field.gpkg#base: tiles table "base", 85 tiles, z0-3
              field.gpkg#overlay: tiles table "overlay", 5 tiles, z0-1

            """)
        let read = try ToolRunner.run(["convert", "field.gpkg", "out.mbtiles"], in: directory)
        #expect(read.status == 1)
        #expect(read.stderr == "Error: field.gpkg: a GeoPackage with 2 tile tables (\"base\", \"overlay\") (name one: FILE.gpkg#TABLE)\n")
        #expect(try ToolRunner.run(["convert", "field.gpkg#base", "back.mbtiles", "--quiet"], in: directory).status == 0)
        let diff = try ToolRunner.run(["diff", Self.world, "back.mbtiles"], in: directory)
        #expect(diff.stdout.contains("unchanged: 85 tiles") && diff.stdout.hasSuffix("metadata: same\n"))
        let sync = try ToolRunner.run(["sync", Self.world, "field.gpkg#overlay", "--delete"], in: directory)
        #expect(sync.status == 0)
        #expect(sync.stdout.hasPrefix("Synced \(Self.world) to field.gpkg#overlay: 80 added, 0 replaced, 0 deleted, 5 unchanged"))
        let again = try ToolRunner.run(["sync", Self.world, "field.gpkg#overlay", "--delete"], in: directory)
        #expect(again.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 85 unchanged"))
        #expect(try ToolRunner.run(["meta", "field.gpkg#overlay", "attribution=field team"], in: directory).status == 0)
        #expect(try ToolRunner.run(["meta", "field.gpkg#overlay", "attribution"], in: directory).stdout == "field team\n")
        #expect(try ToolRunner.run(["meta", "field.gpkg#base", "attribution"], in: directory).stdout == "TileSync sample data (generated)\n")
        let verify = try ToolRunner.run(["verify", "field.gpkg#overlay"], in: directory)
        #expect(verify.stdout == "field.gpkg#overlay: OK, 85 tiles checked\n")
    }

    @Test("serve reads a GeoPackage table: the stored bytes and TileJSON", .enabled(if: CurlResponse.available, "curl not found: SKIPPED"))
    func serve() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "w.gpkg", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "tree", "--quiet"], in: directory).status == 0)
        let server = try ServeProcess(["w.gpkg"], in: directory)
        defer { _ = server.stop() }
        let tile = try CurlResponse.get(server.base + "/w/2/1/3.png")
        #expect(tile.status == 200)
        #expect(tile.body == FileManager.default.contents(atPath: directory + "/tree/2/1/3.png"))
        let document = try CurlResponse.get(server.base + "/w.json")
        #expect(String(decoding: document.body, as: UTF8.self).contains("\"tiles\":[\"\(server.base)/w/{z}/{x}/{y}.png\"]"))
    }
}
