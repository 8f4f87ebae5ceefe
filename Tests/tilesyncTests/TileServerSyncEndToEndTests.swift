import Foundation
import Testing
@testable import TileSync

@Suite("tilesync keeping tile servers' tiles current and resuming downloads (nginx on 127.0.0.1)",
       .enabled(if: NginxServer.available, Comment(rawValue: NginxServer.missingMessage)))
final class TileServerSyncEndToEndTests {
    let site: GeneratedTileServer
    var directory: String { site.directory }
    var server: NginxServer { site.server }

    /// The tree of 300 tiles at `/` and at `/fresh/` (`GeneratedTileServer`).
    init() throws {
        site = try GeneratedTileServer(purpose: "tileserver-sync")
    }

    struct Request: Hashable {
        let path: String
        let status: String
        let conditional: Bool
    }

    /// The requests logged after the first `from`.
    func requests(from start: Int = 0) -> [Request] {
        server.requests.dropFirst(start).map { line in
            let fields = line.split(separator: " ").map(String.init)
            return Request(path: fields[1], status: fields[2], conditional: fields[3] != "-")
        }
    }

    func tiles(_ path: String) throws -> [String: Data] {
        let cursor = try TileStoreLocation(parsing: directory + "/" + path).openReader().tiles(matching: TileFilter())
        var result: [String: Data] = [:]
        while let tile = try cursor.next() { result["\(tile.coordinate)"] = tile.data }
        return result
    }

    func kept() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tilesync-downloads") }.sorted()
    }

    @Test("fresh tiles are not asked again; stale ones get 304; 5 changed files are fetched and written; --revalidate asks everything")
    func revalidation() throws {
        let fresh = server.base + "/fresh/{z}/{x}/{y}.png", stale = server.base + "/{z}/{x}/{y}.png"
        for url in [fresh, stale] {
            let name = url == fresh ? "fresh.mbtiles" : "stale.mbtiles"
            let start = server.requests.count
            let first = try ToolRunner.run(["sync", url, name, "--max-zoom", "4"], in: directory)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.hasPrefix("Synced \(url) to \(name) (created): 300 added, 0 replaced, 0 deleted, 0 unchanged"))
            #expect(requests(from: start).count == 341)
            #expect(Set(requests(from: start).map(\.path)).count == 341)
            #expect(try tiles(name) == tiles("tree"))
        }
        #expect(try kept() == [".fresh.mbtiles.tilesync-downloads", ".stale.mbtiles.tilesync-downloads"])

        var start = server.requests.count
        let unexpired = try ToolRunner.run(["sync", fresh, "fresh.mbtiles", "--max-zoom", "4"], in: directory)
        #expect(unexpired.status == 0)
        #expect(unexpired.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 300 unchanged (neither store changed since the last sync)"))
        #expect(requests(from: start) == [])

        start = server.requests.count
        let revalidated = try ToolRunner.run(["sync", stale, "stale.mbtiles", "--max-zoom", "4"], in: directory)
        #expect(revalidated.status == 0)
        #expect(revalidated.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 300 unchanged in "))
        #expect(revalidated.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("Note: ") } == [
            "Note: 300 tiles asked for; the server had no tile for 0 of them (404, 204 or an empty body)",
            "Note: 300 of the tiles asked for were unchanged (304 Not Modified)",
            "Note: 0 tiles and 41 places without a tile were not asked for again (still fresh by the server's Cache-Control or Expires, or fetched before an interruption)",
            "Note: 127.0.0.1:\(server.port) answered over HTTP/1.1: 2 connections opened, one request at a time on each",
        ])
        #expect(requests(from: start).count == 300)
        #expect(requests(from: start).allSatisfy { $0.status == "304" && $0.conditional })

        try changedTilesAreFetched(fresh: fresh, stale: stale)
    }

    /// After five files change on the server: a sync of the stale copy fetches exactly them,
    /// `--revalidate` asks everything of the fresh copy, and a deleted copy is fetched whole.
    private func changedTilesAreFetched(fresh: String, stale: String) throws {
        let changed = ["4/0/0", "4/3/2", "4/7/7", "3/5/1", "2/3/3"]
        for (index, tile) in changed.enumerated() {
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("changed \(index) \(tile)".utf8))
                .write(to: URL(fileURLWithPath: directory + "/tree/\(tile).png"))
        }
        var start = server.requests.count
        let update = try ToolRunner.run(["sync", stale, "stale.mbtiles", "--max-zoom", "4"], in: directory)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.hasPrefix("Synced \(stale) to stale.mbtiles: 0 added, 5 replaced, 0 deleted, 295 unchanged"))
        #expect(Set(requests(from: start).filter { $0.status == "200" }.map(\.path)) == Set(changed.map { "/\($0).png" }))
        #expect(requests(from: start).filter { $0.status == "304" }.count == 295)
        #expect(try tiles("stale.mbtiles") == tiles("tree"))

        start = server.requests.count
        let asked = try ToolRunner.run(["sync", fresh, "fresh.mbtiles", "--max-zoom", "4", "--revalidate"], in: directory)
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.hasPrefix("Synced \(fresh) to fresh.mbtiles: 0 added, 5 replaced, 0 deleted, 295 unchanged"))
        #expect(requests(from: start).count == 341)
        #expect(requests(from: start).filter { $0.status == "304" && $0.conditional }.count == 295)
        #expect(requests(from: start).filter { $0.status == "404" && !$0.conditional }.count == 41)
        #expect(try tiles("fresh.mbtiles") == tiles("tree"))

        try FileManager.default.removeItem(atPath: directory + "/fresh.mbtiles")
        start = server.requests.count
        let recreated = try ToolRunner.run(["sync", fresh, "fresh.mbtiles", "--max-zoom", "4"], in: directory)
        #expect(recreated.status == 0, "\(recreated.stderr)")
        #expect(recreated.stdout.hasPrefix("Synced \(fresh) to fresh.mbtiles (created): 300 added"))
        #expect(requests(from: start).count == 300, "each tile once, its bytes gone with the destination; places without one not asked")
        #expect(requests(from: start).allSatisfy { $0.status == "200" && !$0.conditional })
        #expect(try tiles("fresh.mbtiles") == tiles("tree"))
    }

    @Test("sync from a tile server shows its progress: tiles, places asked of the plan, rate, bytes, ETA")
    func progress() throws {
        let run = try ToolRunner.run(["sync", server.base + "/{z}/{x}/{y}.png", "p.mbtiles", "--max-zoom", "4", "--rate", "400"],
                                     in: directory, environment: ProcessInfo.processInfo.environment.merging(["TILESYNC_PROGRESS": "1"]) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.components(separatedBy: "\r\u{1B}[K").dropFirst().filter { !$0.isEmpty }
        #expect(lines.count >= 3, "\(run.stderr)")
        let pattern = #/^(\d+) tiles, (\d+)/341 asked \((\d+)%\), \d+ tiles/s, [\d.]+ (B|KB), ETA 0:0\d$/#
        for line in lines.dropLast() {
            guard let match = line.wholeMatch(of: pattern) else { Issue.record("\(line)"); continue }
            #expect(Int(match.1)! <= Int(match.2)! && Int(match.3)! == Int(match.2)! * 100 / 341)
        }
        #expect(lines.last?.hasPrefix("Note: 341 tiles asked for") == true, "the line is cleared before the summary")
    }

    /// Starts a conversion of the tree at 60 requests per second and stops it with `signal`
    /// once the server has logged `requests` of its requests.
    func interruptedConversion(_ signal: Int32, after requests: Int) throws -> [Request] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.binary)
        process.arguments = ["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "4", "--rate", "60", "--connections", "1"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while server.requests.count < requests, process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == (signal == SIGKILL ? .uncaughtSignal : .exit))
        return self.requests()
    }

    @Test("kill -9 half way: no destination, the tiles fetched kept beside it; the rerun asks only for the rest (and the answers in flight)")
    func killedDownload() throws {
        let first = try interruptedConversion(SIGKILL, after: 170)
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.mbtiles"))
        #expect(try kept() == [".out.mbtiles.tilesync-downloads", ".out.mbtiles.tilesync-downloads-journal",
                               ".out.mbtiles.tilesync-downloads-partial", ".out.mbtiles.tilesync-downloads-partial-journal"])
        #expect((170...200).contains(first.count))
        let rerun = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "4"], in: directory)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let second = requests(from: first.count)
        let askedTwice = Set(first.map(\.path)).intersection(second.map(\.path))
        #expect(askedTwice.count <= 2, "at most the 2 requests in flight at the kill: \(askedTwice.sorted())")
        #expect(Set(first.map(\.path)).union(second.map(\.path)).count == 341)
        #expect(second.count == 341 - first.count + askedTwice.count)
        #expect(try tiles("out.mbtiles") == tiles("tree"))
        #expect(try kept() == [])
    }

    @Test("Ctrl-C half way: the answers in flight are kept too, so the rerun asks no tile twice")
    func interruptedDownload() throws {
        let first = try interruptedConversion(SIGINT, after: 120)
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.mbtiles"))
        let rerun = try ToolRunner.run(["convert", server.base + "/{z}/{x}/{y}.png", "out.mbtiles", "--max-zoom", "4"], in: directory)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let second = requests(from: first.count)
        #expect(Set(first.map(\.path)).intersection(second.map(\.path)) == [])
        #expect(first.count + second.count == 341)
        let reused = first.filter { $0.status == "200" }.count
        #expect(rerun.stderr.contains("Note: \(reused) tiles and \(first.count - reused) places without a tile were not asked for again"))
        #expect(try tiles("out.mbtiles") == tiles("tree"))
        #expect(try kept() == [])
    }
}
