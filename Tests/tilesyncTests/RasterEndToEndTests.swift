import Foundation
import Testing
@testable import TileSync

@Suite("tilesync convert and sync with --tile-format: summary lines, JSON counts, usage errors")
struct RasterEndToEndTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
    static let plain = fixtures + "/node-mbtiles/plain_1.mbtiles"
    static var available: Bool { FileManager.default.fileExists(atPath: plain) && RasterReencoder.isAvailable }

    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "tilesync-raster-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("convert --tile-format webp --lossless --json: counts and format; a sync rerun re-encodes nothing",
          .enabled(if: available, "fixtures or raster codecs missing: SKIPPED"))
    func convertAndSync() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let converted = try ToolRunner.run(["convert", Self.plain, folder + "/out.mbtiles", "--tile-format", "webp", "--lossless", "--json"])
        #expect(converted.status == 0, "\(converted.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(converted.stdout.utf8)) as? [String: Any])
        let raster = try #require(json["raster"] as? [String: Int])
        #expect(json["tiles"] as? Int == 285 && json["format"] as? String == "webp")
        #expect(raster["reencoded"] == 285 && raster["kept_smaller"] == 0 && raster["dropped_empty"] == 0)
        #expect(raster["bytes_before"] == 477_705 && (raster["bytes_after"] ?? 0) < 477_705)

        let synced = try ToolRunner.run(["sync", Self.plain, folder + "/mirror", "--tile-format", "png"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let line = try #require(synced.stdout.split(separator: "\n").last)
        #expect(line.hasPrefix("Raster tiles as png: 469.7 KB -> "), "the 207 distinct tiles' bytes: \(synced.stdout)")
        #expect(line.hasSuffix("(92 re-encoded, 115 kept their own smaller bytes)"), "each of the 207 distinct tiles once: \(line)")
        let again = try ToolRunner.run(["sync", Self.plain, folder + "/mirror", "--tile-format", "png", "--json"])
        let rerun = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(rerun["unchanged"] as? Int == 285 && rerun["wrote_nothing"] as? Bool == true)
        #expect((rerun["raster"] as? [String: Int])?["reencoded"] == 0)
    }

    /// Compares every file under two folders with Pillow (an independent decoder): prints
    /// `compared N differing M` over the RGBA of tiles of the same z/x/y.
    static let pillowComparison = """
        import os, sys
        from PIL import Image
        left, right = sys.argv[1], sys.argv[2]
        def tiles(root):
            found = {}
            for folder, _, names in os.walk(root):
                for name in names:
                    if name.endswith((".png", ".webp", ".jpg")):
                        path = os.path.join(folder, name)
                        found[os.path.splitext(os.path.relpath(path, root))[0]] = path
            return found
        a, b = tiles(left), tiles(right)
        differing = [key for key in a if key not in b or Image.open(a[key]).convert("RGBA").tobytes() != Image.open(b[key]).convert("RGBA").tobytes()]
        print("compared", len(a), "differing", len(differing) + len(set(b) - set(a)))
        """

    @Test("Pillow, an independent decoder, sees the same RGBA in every lossless WebP and PNG tile as in the source",
          .enabled(if: available, "fixtures or raster codecs missing: SKIPPED"))
    func pillowAgrees() throws {
        guard try ServeEndToEndTests.run("/usr/bin/env", ["python3", "-c", "import PIL; print('ok')"]) == "ok\n" else {
            print("Pillow not installed (pip install pillow): the independent lossless check is SKIPPED")
            return
        }
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stamen = Self.fixtures + "/protomaps-PMTiles/spec-v3/stamen_toner(raster)CC-BY+ODbL_z3.pmtiles"
        for (source, count) in [(Self.plain, 285), (stamen, 85)] {
            let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
            #expect(try ToolRunner.run(["convert", source, "\(folder)/\(name)", "--quiet"]).status == 0)
            for options in [["--tile-format", "webp", "--lossless"], ["--tile-format", "png"]] {
                let output = "\(folder)/\(name)-\(options[1])"
                #expect(try ToolRunner.run(["convert", source, output, "--quiet"] + options).status == 0)
                let compared = try ServeEndToEndTests.run("/usr/bin/env", ["python3", "-c", Self.pillowComparison, "\(folder)/\(name)", output])
                #expect(compared == "compared \(count) differing 0\n", "\(name) \(options)")
            }
        }
    }

    @Test("A bad tile exits 1 naming the store and the tile; the destination is not created",
          .enabled(if: RasterReencoder.isAvailable))
    func badTile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in/2/1", withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]).write(to: URL(fileURLWithPath: folder + "/in/2/1/3.png"))
        let result = try ToolRunner.run(["convert", folder + "/in", folder + "/out.pmtiles", "--tile-format", "webp"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: \(folder)/in: tile 2/1/3: cannot be decoded as PNG: the data ends early (truncated PNG)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.pmtiles"))
    }

    @Test("Usage errors exit 2 with the reason", arguments: [
        (["--tile-format", "gif"], "Error: --tile-format must be webp, png or jpeg, not 'gif'"),
        (["--tile-format", "png", "--lossless"], "Error: --lossless applies to --tile-format webp"),
        (["--tile-format", "webp", "--background", "white"], "Error: --background applies to --tile-format jpeg"),
        (["--tile-format", "jpeg", "--background", "chartreuse"], "Error: --background must be #rrggbb, #rgb, white or black, not 'chartreuse'"),
        (["--tile-format", "jpeg", "--quality", "101"], "Error: '--quality' must be a whole number in 0...100, not '101'"),
        (["--quality", "80"], "Error: --quality, --lossless and --background go with --tile-format"),
    ])
    func usage(options: [String], message: String) throws {
        let result = try ToolRunner.run(["convert", "a.mbtiles", "b.mbtiles"] + options)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
    }
}
