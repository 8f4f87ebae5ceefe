import Foundation
import Testing
@testable import TileSync

@Suite("tilesync --tiles: expire lists select exactly their tiles; a listed sync from a tile server asks exactly them again (nginx's log as witness)",
       .enabled(if: NginxServer.available, Comment(rawValue: NginxServer.missingMessage)))
final class TileListEndToEndTests {
    let site: GeneratedTileServer
    var directory: String { site.directory }
    var server: NginxServer { site.server }

    /// The tree of 300 tiles at `/` and at `/fresh/` (`GeneratedTileServer`).
    init() throws {
        site = try GeneratedTileServer(purpose: "tile-list")
    }

    /// (path, status) of the requests logged after the first `start`.
    func requests(from start: Int) -> [String] {
        server.requests.dropFirst(start).map { line in
            let fields = line.split(separator: " ").map(String.init)
            return fields[1] + " " + fields[2]
        }
    }

    func tiles(_ path: String) throws -> [TileCoordinate: Data] {
        let cursor = try TileStoreLocation(parsing: directory + "/" + path).openReader().tiles(matching: .all)
        var tiles: [TileCoordinate: Data] = [:]
        while let tile = try cursor.next() { tiles[tile.coordinate] = tile.data }
        return tiles
    }

    @Test("Changed and deleted tiles listed at z4 with parents: exactly those are asked again, though fresh; the copy equals the server; a rerun asks them again")
    func listedSync() throws {
        let url = server.base + "/fresh/{z}/{x}/{y}.png"
        #expect(try ToolRunner.run(["sync", url, "copy.mbtiles", "--max-zoom", "4", "--quiet"], in: directory).status == 0)
        let changed = ["4/0/0", "4/3/2", "4/9/5", "4/12/11"], deleted = "4/11/12"
        for (index, tile) in changed.enumerated() {
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("changed \(index) \(tile)".utf8))
                .write(to: URL(fileURLWithPath: directory + "/tree/\(tile).png"))
        }
        try FileManager.default.removeItem(atPath: directory + "/tree/\(deleted).png")
        try Data(("# expired by the last import\n" + (changed + [deleted]).joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: directory + "/expire.list"))
        let widened = Set((changed + [deleted]).flatMap { text -> [String] in
            let parts = text.split(separator: "/").compactMap { Int($0) }
            return (0...4).map { z in "/fresh/\(z)/\(parts[1] >> (4 - z))/\(parts[2] >> (4 - z)).png" }
        })
        #expect(widened.count == 18)
        for run in 0..<2 {
            let start = server.requests.count
            let sync = try ToolRunner.run(["sync", url, "copy.mbtiles", "--tiles", "expire.list", "--expand-zooms", "0-4", "--delete"], in: directory)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.hasPrefix(run == 0 ? "Synced \(url) to copy.mbtiles: 0 added, 4 replaced, 1 deleted, 13 unchanged"
                                                   : "Nothing to do: 0 added, 0 replaced, 0 deleted, 17 unchanged"), "\(sync.stdout)")
            let asked = requests(from: start)
            #expect(asked.count == 18, "each listed tile once")
            #expect(Set(asked.map { String($0.split(separator: " ")[0]) }) == widened)
            #expect(asked.filter { $0.hasSuffix(" 404") } == ["/fresh/\(deleted).png 404"])
            #expect(try tiles("copy.mbtiles") == tiles("tree"))
        }
        let start = server.requests.count
        let full = try ToolRunner.run(["sync", url, "copy.mbtiles", "--max-zoom", "4", "--delete"], in: directory)
        #expect(full.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 299 unchanged"), "\(full.stdout)")
        #expect(requests(from: start).isEmpty, "the next full sync finds every tile fresh")
    }

    @Test("convert --tiles from standard input; a bad line stops naming it, --skip-invalid counts it")
    func standardInputAndBadLines() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.binary)
        process.arguments = ["convert", directory + "/tree", directory + "/few", "--tiles", "-", "--quiet"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data("3/1/2\n2 3 1\n4,5,6\n4/15/15\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Set(try tiles("few").keys.map(\.description)) == ["3/1/2", "2/3/1", "4/5/6"])
        try Data("2/1/1\n2/4/0\n-1/0/0\n\u{1}\u{2}garbage\n".utf8).write(to: URL(fileURLWithPath: directory + "/bad.list"))
        let bad = try ToolRunner.run(["convert", "tree", "bad.mbtiles", "--tiles", "bad.list"], in: directory)
        #expect(bad.status == 1)
        #expect(bad.stderr == "Error: bad.list: line 2: column x=4 is out of range at zoom 2 (0...3)\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/bad.mbtiles"))
        let skipped = try ToolRunner.run(["convert", "tree", "bad.mbtiles", "--tiles", "bad.list", "--skip-invalid", "--quiet"], in: directory)
        #expect(skipped.status == 0)
        #expect(skipped.stderr == "Warning: bad.list: 3 invalid lines skipped (--skip-invalid)\n")
        #expect(Set(try tiles("bad.mbtiles").keys.map(\.description)) == ["2/1/1"])
    }

    @Test("tile --tiles counts the listed tiles per zoom; with --source what a store holds of them, a tile server's asked")
    func count() throws {
        try Data("4/0/0\n4/3/2\n4/3/3\n9/1/1\n".utf8).write(to: URL(fileURLWithPath: directory + "/count.list"))
        let plain = try ToolRunner.run(["tile", "--tiles", "count.list", "--expand-zooms", "3-4"], in: directory)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == """
            tiles:    count.list: 4 listed lines, 5 distinct tiles
              z3: 2 tiles
              z4: 3 tiles
            total:    5 tiles

            """)
        let listed = ["3/0/0", "3/1/1", "4/0/0", "4/3/2", "4/3/3"]
        let sizes = try listed.map { try FileManager.default.attributesOfItem(atPath: directory + "/tree/\($0).png")[.size] as? Int ?? -1 }
        let z3 = sizes[0] + sizes[1], z4 = sizes[2...].reduce(0, +)
        let local = try ToolRunner.run(["tile", "--tiles", "count.list", "--expand-zooms", "3-4", "--source", "tree", "--min-zoom", "4",
                                        "--max-zoom", "5", "--json"], in: directory)
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdout == """
            {"tile_list":"count.list","listed_lines":4,"skipped_lines":0,"tiles":3,"zooms":[{"zoom":4,"tiles":3,"source_tiles":3,\
            "source_bytes":\(z4)},{"zoom":5,"tiles":0,"source_tiles":0,"source_bytes":0}],"source":{"store":"tree","tiles":3,"bytes":\(z4)}}

            """)
        let start = server.requests.count
        let template = server.base + "/{z}/{x}/{y}.png"
        let remote = try ToolRunner.run(["tile", "--tiles", "count.list", "--expand-zooms", "3-4", "--source", template], in: directory)
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stdout.hasSuffix("""
              z3: 2 tiles; \(z3) B held, all 2 asked (2 there)
              z4: 3 tiles; \(z4) B held, all 3 asked (3 there)
            total:    5 tiles; \(z3 + z4) B held, all 5 asked (5 there), asked of \(template)

            """), "\(remote.stdout)")
        #expect(Set(requests(from: start)) == Set(listed.map { "/\($0).png 200" }))
        let both = try ToolRunner.run(["tile", "--tiles", "count.list", "--region", "x.geojson"], in: directory)
        #expect(both.status == 2)
        #expect(both.stderr.hasPrefix("Error: give one of --region, --tiles, not several\n"))
    }
}
