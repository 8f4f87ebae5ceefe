import Foundation
import Testing

@Suite("sync --purge-list: the public URLs of exactly the tiles written or deleted, ready for a CDN")
final class PurgeListEndToEndTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-purge-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Relative path -> bytes of every tile file under `folder`.
    func files(_ folder: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let root = directory + "/" + folder
        let paths = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        for path in paths where path.hasSuffix(".png") {
            found[path] = FileManager.default.contents(atPath: root + "/" + path)
        }
        return found
    }

    @Test("Changed, added and deleted tiles (compared in the test from the two trees) and metadata.json; a template URL; nothing written when nothing changed")
    func purgeList() throws {
        #expect(try ToolRunner.run(["convert", MergeEndToEndTests.world, "tree", "--quiet"], in: directory).status == 0)
        let base = "https://cdn.example.com/world"
        let first = try ToolRunner.run(["sync", "tree", "published.mbtiles", "--purge-list", "first.txt", "--public-url", base], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Purge list: 86 URLs in first.txt"))
        let before = try files("tree")
        for (index, path) in ["3/1/1.png", "3/6/2.png", "2/0/3.png"].enumerated() {
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, UInt8(index)]).write(to: URL(fileURLWithPath: directory + "/tree/" + path))
        }
        for path in ["3/7/7.png", "1/0/0.png"] { try FileManager.default.removeItem(atPath: directory + "/tree/" + path) }
        let after = try files("tree")
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        #expect(changed.count == 5)
        let second = try ToolRunner.run(["sync", "tree", "published.mbtiles", "--delete", "--purge-list", "second.txt", "--public-url", base + "/"],
                                        in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        let urls = try String(contentsOfFile: directory + "/second.txt", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Set(urls) == Set(changed.map { base + "/" + $0 }))
        #expect(urls.count == 5, "each once")
        #expect(second.stdout.contains("Purge list: 5 URLs in second.txt"))

        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9]).write(to: URL(fileURLWithPath: directory + "/tree/3/6/2.png"))
        let template = try ToolRunner.run(["sync", "tree", "published.mbtiles", "--purge-list", "third.txt",
                                           "--public-url", "https://t.example.com/{z}/{x}/{-y}.{ext}?v=1", "--json"], in: directory)
        #expect(template.status == 0)
        #expect(try String(contentsOfFile: directory + "/third.txt", encoding: .utf8) == "https://t.example.com/3/6/5.png?v=1\n")
        #expect(template.stdout.contains(#""purged_urls":1,"#))

        let none = try ToolRunner.run(["sync", "tree", "published.mbtiles", "--purge-list", "fourth.txt", "--public-url", base], in: directory)
        #expect(none.stdout.contains("Purge list: nothing changed, fourth.txt not written"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/fourth.txt"))
        let usage = try ToolRunner.run(["sync", "tree", "published.mbtiles", "--purge-list", "x.txt"], in: directory)
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("Error: --purge-list needs --public-url URL (where the destination is published)\n"))
    }
}
