import Foundation
import Testing
@testable import TileSync

@Suite("tilesync convert and sync with several sources")
final class MergeEndToEndTests {
    let directory: String
    static let world = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/world.mbtiles").path

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-merge-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test("convert A B DST merges an MBTiles and a folder; a conflict aborts naming the option; override and sync --delete follow the order")
    func mergeSources() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "a.mbtiles", "--max-zoom", "1", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "b", "--min-zoom", "1", "--max-zoom", "2", "--quiet"], in: directory).status == 0)
        let merged = try ToolRunner.run(["convert", "a.mbtiles", "b", "merged.pmtiles"], in: directory)
        #expect(merged.status == 0)
        #expect(merged.stdout.contains("  5 tiles from a.mbtiles\n  16 tiles from b\n"))
        #expect(merged.stdout.contains("Coordinates held by several sources: 4 with the same bytes, 0 decided by --on-duplicate abort\n"))

        #expect(FileManager.default.createFile(atPath: directory + "/b/1/1/1.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1])))
        let conflict = try ToolRunner.run(["convert", "a.mbtiles", "b", "conflict.mbtiles"], in: directory)
        #expect(conflict.status == 1)
        #expect(conflict.stderr.hasPrefix("Error: b: tile 1/1/1: a.mbtiles and b hold different bytes; nothing was written "
            + "(--on-duplicate override lets the later source win, ignore keeps the first)\n"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/conflict.mbtiles"))

        #expect(try ToolRunner.run(["convert", "a.mbtiles", "b", "over.mbtiles", "--on-duplicate", "override", "--quiet"], in: directory).status == 0)
        let info = try ToolRunner.run(["info", "over.mbtiles"], in: directory)
        #expect(info.stdout.contains("tiles:    21\n"))
        let sync = try ToolRunner.run(["sync", "b", "a.mbtiles", "over-copy", "--on-duplicate", "ignore", "--delete", "--quiet"], in: directory)
        #expect(sync.status == 0)
        let compare = try ToolRunner.run(["verify", "over.mbtiles", "over-copy"], in: directory)
        #expect(compare.status == 0, "b first, then a: b's 1/1/1 wins under ignore, as a's loses under override: \(compare.stdout)")
    }

    @Test("verify A B DST says whether DST is the merge; diff A B DST lists what sync would do; --json reports each source")
    func verifyAndDiff() throws {
        #expect(try ToolRunner.run(["convert", Self.world, "a.mbtiles", "--max-zoom", "1", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", Self.world, "b.pmtiles", "--min-zoom", "1", "--max-zoom", "2", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", "a.mbtiles", "b.pmtiles", "merged", "--quiet"], in: directory).status == 0)
        let same = try ToolRunner.run(["verify", "a.mbtiles", "b.pmtiles", "merged"], in: directory)
        #expect(same.status == 0)
        #expect(same.stdout == "a.mbtiles + b.pmtiles and merged hold the same 21 tiles\n")
        let partial = try ToolRunner.run(["verify", "a.mbtiles", "merged"], in: directory)
        #expect(partial.status == 1)
        #expect(partial.stdout.hasSuffix("a.mbtiles and merged differ: 0 only in a.mbtiles, 16 only in merged, 0 different, 5 the same\n"))

        #expect(FileManager.default.createFile(atPath: directory + "/merged/2/0/0.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 2])))
        let diff = try ToolRunner.run(["diff", "a.mbtiles", "b.pmtiles", "merged", "--json"], in: directory)
        #expect(diff.status == 1)
        let lines = diff.stdout.split(separator: "\n")
        #expect(lines.first == #"{"action":"replace","tile":"2/0/0","z":2,"x":0,"y":0,"size":\#(try size(of: "2/0/0", in: "b.pmtiles"))}"#)
        #expect(lines.last?.contains(#""merge":{"on_duplicate":"abort","sources":[{"store":"a.mbtiles","tiles":5},{"store":"b.pmtiles","tiles":16}],"held_alike":4,"decided_by_policy":0,"decided_uncompared":0}"#) == true)

        let dryRun = try ToolRunner.run(["sync", "a.mbtiles", "b.pmtiles", "merged", "--dry-run"], in: directory)
        #expect(dryRun.status == 0)
        #expect(dryRun.stdout.hasPrefix("replace 2/0/0 ("))
        #expect(dryRun.stdout.contains("Dry run, nothing changed: would write "))
        let sync = try ToolRunner.run(["sync", "a.mbtiles", "b.pmtiles", "merged", "--json"], in: directory)
        #expect(sync.status == 0)
        #expect(sync.stdout.contains(#""replaced":1,"#))
        #expect(sync.stdout.contains(#""merge":{"on_duplicate":"abort","sources":[{"store":"a.mbtiles","tiles":5},{"store":"b.pmtiles","tiles":16}]"#))
        #expect(try ToolRunner.run(["verify", "a.mbtiles", "b.pmtiles", "merged", "--quiet"], in: directory).status == 0)
    }

    /// The size of a tile of a store in the test's folder, read through the library (-1 when absent).
    func size(of tile: String, in store: String) throws -> Int {
        try TileSource(path: directory + "/" + store).tile(at: TileCoordinate(parsing: tile))?.count ?? -1
    }
}
