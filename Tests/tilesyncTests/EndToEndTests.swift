import Foundation
import Testing

@Suite("tilesync end to end")
final class EndToEndTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A 21-tile folder (zooms 0-2) with metadata, made with plain file writes.
    func makeFolder(_ name: String) throws -> String {
        let root = directory + "/" + name
        for z in 0...2 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    try FileManager.default.createDirectory(atPath: "\(root)/\(z)/\(x)", withIntermediateDirectories: true)
                    let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("\(z)/\(x)/\(y)".utf8)
                    #expect(FileManager.default.createFile(atPath: "\(root)/\(z)/\(x)/\(y).png", contents: Data(bytes)))
                }
            }
        }
        #expect(FileManager.default.createFile(atPath: root + "/metadata.json", contents: Data(#"{"name":"e2e","attribution":"© test"}"#.utf8)))
        return root
    }

    @Test("--version and --help")
    func versionAndHelp() throws {
        let version = try ToolRunner.run(["--version"])
        #expect(version.status == 0 && version.stdout == "tilesync 0.1.0\n")
        let help = try ToolRunner.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Convert and sync map tile stores"))
        for command in ["convert", "sync", "diff", "apply", "info", "meta", "verify", "tile"] {
            #expect(help.stdout.contains("\n  \(command) "))
            let commandHelp = try ToolRunner.run([command, "--help"])
            #expect(commandHelp.status == 0)
            for section in ["OVERVIEW:", "USAGE: tilesync \(command)", "OPTIONS:", "EXAMPLES:"] {
                #expect(commandHelp.stdout.contains(section), "\(command) \(section)")
            }
            #expect(try ToolRunner.run(["help", command]).stdout == commandHelp.stdout)
        }
        #expect(try ToolRunner.run(["convert", "--help"]).stdout.contains("ARGUMENTS:\n  <source>"))
        let reference = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        #expect(reference.contains("```\n" + help.stdout + "```\n"), "docs/commands.md is stale: run Scripts/make-command-docs")
        for command in ["convert", "sync", "diff", "apply", "info", "meta", "verify", "tile"] {
            let text = try ToolRunner.run([command, "--help"]).stdout
            #expect(reference.contains("## tilesync \(command)\n\n```\n" + text + "```\n"), "docs/commands.md is stale for \(command)")
        }
    }

    @Test("Bad usage exits 2 with Error: and the usage line")
    func badUsage() throws {
        let cases: [([String], String)] = [
            (["convert", "a", "b", "--colour"], "Error: unknown option '--colour'\nUsage: tilesync convert [<options>] <source> ... <destination>\n  See 'tilesync convert --help'.\n"),
            (["convert", "a"], "Error: missing <destination>\nUsage: tilesync convert [<options>] <source> ... <destination>\n  See 'tilesync convert --help'.\n"),
            (["convert", "a", "b", "--max-zoom", "31"], "Error: '--max-zoom' must be a whole number in 0...30, not '31'\nUsage: tilesync convert [<options>] <source> ... <destination>\n  See 'tilesync convert --help'.\n"),
            (["convert", "a", "b", "--bbox", "1,2,3"], "Error: --bbox: '1,2,3' is not a bounding box W,S,E,N in degrees\nUsage: tilesync convert [<options>] <source> ... <destination>\n  See 'tilesync convert --help'.\n"),
            (["frobnicate"], "Error: unknown command 'frobnicate' (commands: convert, sync, diff, apply, info, meta, verify, tile, serve)\nUsage: tilesync <command> [<options>] ...\n  See 'tilesync --help'.\n"),
            (["tile", "5/40/1"], "Error: column x=40 is out of range at zoom 5 (0...31)\n"),
        ]
        for (arguments, stderr) in cases {
            let result = try ToolRunner.run(arguments, in: directory)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == stderr)
            #expect(result.stdout.isEmpty)
        }
        #expect(try ToolRunner.run([]).status == 2)
    }

    @Test("convert: folder -> MBTiles -> tar.gz -> folder, quiet when not a terminal, exit 0")
    func convertChain() throws {
        let source = try makeFolder("src")
        let first = try ToolRunner.run(["convert", source, "a.mbtiles"], in: directory)
        #expect(first.status == 0)
        #expect(first.stderr == "Note: \(source): read as {z}/{x}/{y}.{ext} (21 of 21 sampled paths fit), as no metadata says how its paths are laid out; "
                + "paths cannot tell it from {z}/{y}/{x}.{ext} or TMS rows (--source-layout '{z}/{y}/{x}.{ext}', --source-scheme tms)\n")
        #expect(try ToolRunner.run(["convert", source, "a2.mbtiles", "--source-layout", "xyz"], in: directory).stderr.isEmpty)
        #expect(first.stdout.hasPrefix("Converted 21 tiles (273 B) from \(source) to a.mbtiles in "))
        #expect(try ToolRunner.run(["convert", "a.mbtiles", "b.tar.gz", "--quiet"], in: directory).stdout.isEmpty)
        let last = try ToolRunner.run(["convert", "b.tar.gz", "dir:c", "--json"], in: directory)
        #expect(last.status == 0)
        #expect(last.stdout.hasPrefix(#"{"source":"b.tar.gz","destination":"c","tiles":21,"grids":0,"tiles_without_layers":0,"bytes":273,"distinct_blobs":21,"duplicate_tiles":0,"duplicate_bytes":0,"bytes_saved":0,"format":"png","seconds":"#))
        #expect(last.stdout.hasSuffix(#""skipped_invalid":{"count":0,"named":[]},"skipped_non_tiles":{"count":0,"named":[]},"not_carried":[],"raster":null,"warnings":[],"notes":[]}"# + "\n"))
        for z in 0...2 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    #expect(FileManager.default.contents(atPath: "\(directory)/c/\(z)/\(x)/\(y).png")
                        == FileManager.default.contents(atPath: "\(source)/\(z)/\(x)/\(y).png"))
                }
            }
        }
        let metadata = String(decoding: FileManager.default.contents(atPath: directory + "/c/metadata.json") ?? Data(), as: UTF8.self)
        #expect(metadata == """
            {
              "name": "e2e",
              "attribution": "© test",
              "minzoom": "0",
              "maxzoom": "2",
              "bounds": "-180,-85.051129,180,85.051129",
              "format": "png",
              "agg_tiles_hash": "DFAC3BFF5B8A92992A70F8F00EB5CC82",
              "scheme": "xyz"
            }

            """)
    }

    @Test("PMTiles: convert both ways, info header, verify, sync, diff; broken archives exit 1 naming the part")
    func pmtiles() throws {
        let source = try makeFolder("src")
        let first = try ToolRunner.run(["convert", source, "a.pmtiles", "--source-scheme", "xyz"], in: directory)
        #expect(first.status == 0 && first.stderr.isEmpty)
        #expect(first.stdout.hasPrefix("Converted 21 tiles (273 B) from \(source) to a.pmtiles in "))
        let head = FileManager.default.contents(atPath: directory + "/a.pmtiles")?.prefix(8)
        #expect(head.map(Array.init) == Array("PMTiles".utf8) + [3])
        let info = try ToolRunner.run(["info", "a.pmtiles"], in: directory)
        #expect(info.status == 0)
        for line in ["kind:     PMTiles archive", "schema:   PMTiles v3, clustered, gzip directories", "tiles:    21",
                     "  clustered:             yes", "  tile type:             png", "  addressed tiles:       21",
                     "  tile contents:         21", "  zooms:                 0-2", "  name: e2e", "  attribution: © test"] {
            #expect(info.stdout.contains(line + "\n"), "info lacks \(line)")
        }
        #expect(try ToolRunner.run(["info", "a.pmtiles", "--json"], in: directory).stdout.contains(#""details":{"version":"3","clustered":"yes","#))
        #expect(try ToolRunner.run(["verify", "a.pmtiles"], in: directory).stdout == "a.pmtiles: OK, 21 tiles checked\n")
        #expect(try ToolRunner.run(["verify", "a.pmtiles", source], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", "a.pmtiles", "back"], in: directory).status == 0)
        #expect(FileManager.default.contents(atPath: directory + "/back/2/3/1.png") == FileManager.default.contents(atPath: source + "/2/3/1.png"))
        let noop = try ToolRunner.run(["sync", source, "a.pmtiles"], in: directory)
        #expect(noop.status == 0 && noop.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 21 unchanged"), "\(noop.stdout)")
        #expect(FileManager.default.createFile(atPath: source + "/2/3/1.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1])))
        let diff = try ToolRunner.run(["diff", source, "a.pmtiles"], in: directory)
        #expect(diff.stdout.hasPrefix("replace 2/3/1"), "\(diff.stdout)")
        #expect(try ToolRunner.run(["sync", source, "a.pmtiles", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["diff", source, "a.pmtiles"], in: directory).stdout
            == "add: 0 tiles (0 B)\nreplace: 0 tiles (0 B)\ndelete: 0 tiles (0 B)\nunchanged: 21 tiles\nmetadata: same\n")
        #expect(try ToolRunner.run(["sync", "a.pmtiles", "mirror.mbtiles", "--quiet"], in: directory).status == 0)
        #expect(try ToolRunner.run(["verify", "a.pmtiles", "mirror.mbtiles"], in: directory).stdout
            == "a.pmtiles and mirror.mbtiles hold the same 21 tiles\n")

        #expect(FileManager.default.createFile(atPath: directory + "/bad.pmtiles", contents: Data("PMTiles".utf8) + Data([4]) + Data(count: 200)))
        let bad = try ToolRunner.run(["convert", "bad.pmtiles", "out.mbtiles"], in: directory)
        #expect(bad.status == 1)
        #expect(bad.stderr == "Error: bad.pmtiles: header: is PMTiles version 4, which TileSync does not read (only version 3)\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.mbtiles"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("tilesync") && !$0.hasSuffix("tilesync-state") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("convert: failures exit 1 naming the store, the destination untouched")
    func convertFailures() throws {
        let source = try makeFolder("src")
        #expect(try ToolRunner.run(["convert", source, "out.tar"], in: directory).status == 0)
        let exists = try ToolRunner.run(["convert", source, "out.tar"], in: directory)
        #expect(exists.status == 1)
        #expect(exists.stderr == "Error: out.tar: already exists (pass --force to replace it)\n")
        let missing = try ToolRunner.run(["convert", "nope.mbtiles", "x.mbtiles"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: nope.mbtiles: no such file\n")
        let same = try ToolRunner.run(["convert", "out.tar", "./out.tar", "--force"], in: directory)
        #expect(same.status == 1)
        #expect(same.stderr == "Error: ./out.tar: is the same store as the source out.tar (choose another destination)\n")
        try FileManager.default.createDirectory(atPath: source + "/1/5", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: source + "/1/5/0.png", contents: Data([1])))
        let invalid = try ToolRunner.run(["convert", source, "bad.mbtiles"], in: directory)
        let hint = " (--skip-invalid skips such tiles and counts them)"
        #expect(invalid.status == 1)
        #expect(invalid.stderr == "Error: \(source): file 1/5/0.png: column x=5 is out of range at zoom 1 (0...1)\(hint)\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/bad.mbtiles"))
        let skipped = try ToolRunner.run(["convert", source, "ok.mbtiles", "--skip-invalid", "--source-layout", "xyz"], in: directory)
        let syncInvalid = try ToolRunner.run(["sync", source, "synced.mbtiles", "--source-layout", "xyz"], in: directory)
        #expect(syncInvalid.status == 1)
        #expect(syncInvalid.stderr == "Error: \(source): file 1/5/0.png: column x=5 is out of range at zoom 1 (0...1)\(hint)\n")
        #expect(skipped.status == 0)
        #expect(skipped.stderr == "Warning: skipped 1 invalid tiles:\n  file 1/5/0.png: column x=5 is out of range at zoom 1 (0...1)\n")
        #expect(skipped.stdout.hasPrefix("Converted 21 tiles "))
    }

    @Test("info: kind, schema, format, counts per zoom, metadata; --json")
    func info() throws {
        let source = try makeFolder("src")
        #expect(try ToolRunner.run(["convert", source, "a.mbtiles", "--quiet"], in: directory).status == 0)
        let text = try ToolRunner.run(["info", "a.mbtiles"], in: directory)
        #expect(text.status == 0)
        #expect(text.stdout == """
            store:    a.mbtiles
            kind:     MBTiles
            schema:   flat
            format:   png (declared: png)
            tiles:    21
            size:     273 bytes (273 B), average 13 bytes
            bounds:   -180,-85.051129,180,85.051129 (of all tiles)
            agg hash: DFAC3BFF5B8A92992A70F8F00EB5CC82 (matches the metadata)
            zooms:
              z0: 1 tiles, 13 bytes, x 0-0, y 0-0
              z1: 4 tiles, 52 bytes, x 0-1, y 0-1
              z2: 16 tiles, 208 bytes, x 0-3, y 0-3
            metadata:
              name: e2e
              attribution: © test
              minzoom: 0
              maxzoom: 2
              bounds: -180,-85.051129,180,85.051129
              format: png
              agg_tiles_hash: DFAC3BFF5B8A92992A70F8F00EB5CC82

            """)
        let json = try ToolRunner.run(["info", source, "--json"], in: directory)
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix(#"{"store":"\#(source)","kind":"dir","schema":"{z}/{x}/{y}.{ext} (assumed: nothing names it)","format":{"declared":null,"sniffed":"png"},"tiles":21,"tile_count_is_partial":false,"bytes":273,"average_tile_bytes":13,"#))
        #expect(try ToolRunner.run(["info", "missing.mbtiles"], in: directory).stderr == "Error: missing.mbtiles: no such file\n")
    }

    @Test("UTFGrids: convert says how many, --grid-callback, sync/diff/verify count them, usage errors")
    func utfGrids() throws {
        let source = try makeFolder("src")
        let grid = #"grid({"grid":[" !"],"keys":["","7"],"data":{"7":{"name":"seven"}}});"#
        #expect(FileManager.default.createFile(atPath: source + "/1/1/0.grid.json", contents: Data(grid.utf8)))
        let first = try ToolRunner.run(["convert", source, "a.mbtiles", "--source-layout", "xyz"], in: directory)
        #expect(first.status == 0 && first.stderr.isEmpty)
        #expect(first.stdout.hasPrefix("Converted 21 tiles and 1 UTFGrids (273 B) from \(source) to a.mbtiles in "))
        let plain = try ToolRunner.run(["convert", "a.mbtiles", "plain", "--grid-callback", ""], in: directory)
        #expect(plain.status == 0)
        #expect(FileManager.default.contents(atPath: directory + "/plain/1/1/0.grid.json")
            == Data(#"{"data":{"7":{"name":"seven"}},"grid":[" !"],"keys":["","7"]}"#.utf8))
        #expect(try ToolRunner.run(["verify", "a.mbtiles", "plain"], in: directory).stdout == "a.mbtiles and plain hold the same 21 tiles and 1 UTFGrids\n")
        let changed = #"cb({"grid":["! "],"keys":["","7"],"data":{"7":{"name":"seven"}}});"#
        #expect(FileManager.default.createFile(atPath: directory + "/plain/1/1/0.grid.json", contents: Data(changed.utf8)))
        let diff = try ToolRunner.run(["diff", "plain", "a.mbtiles"], in: directory)
        #expect(diff.status == 1 && diff.stdout.contains("UTFGrids: 0 added, 1 replaced, 0 deleted, 0 unchanged\n"))
        let sync = try ToolRunner.run(["sync", "plain", "a.mbtiles"], in: directory)
        #expect(sync.status == 0 && sync.stdout.hasPrefix("Synced plain to a.mbtiles: 0 added, 0 replaced, 0 deleted, 21 unchanged; UTFGrids: 0 added, 1 replaced, 0 deleted, 0 unchanged, "))
        #expect(try ToolRunner.run(["verify", "a.mbtiles"], in: directory).stdout == "a.mbtiles: OK, 21 tiles and 1 UTFGrids checked\n")
        #expect(try ToolRunner.run(["info", "a.mbtiles"], in: directory).stdout.contains("\ntiles:    21, and 1 UTFGrids\n"))
        #expect(try ToolRunner.run(["info", "a.mbtiles", "--json"], in: directory).stdout.contains(#""average_tile_bytes":13,"grids":1,"invalid_grids":0,"#))
        let pmtiles = try ToolRunner.run(["convert", "a.mbtiles", "a.pmtiles"], in: directory)
        #expect(pmtiles.stderr == "Warning: a.mbtiles: UTFGrids (1 grid) is not carried to a.pmtiles (a PMTiles archive keeps no UTFGrids)\n")
        let bad = try ToolRunner.run(["convert", "a.mbtiles", "bad", "--grid-callback", "a b"], in: directory)
        #expect(bad.status == 2 && bad.stderr.hasPrefix("Error: --grid-callback: 'a b' is not a JavaScript name (letters, digits, _, $ and .; empty for plain JSON)\n"))
        let wrongKind = try ToolRunner.run(["convert", "a.mbtiles", "b.mbtiles", "--grid-callback", "x"], in: directory)
        #expect(wrongKind.status == 2 && wrongKind.stderr.hasPrefix("Error: --grid-callback does not apply to the MBTiles b.mbtiles (it applies to folder and tar archive stores)\n"))
    }

    @Test("verify: clean store exit 0, problems exit 1 one per line, two stores compared")
    func verify() throws {
        let source = try makeFolder("src")
        #expect(try ToolRunner.run(["convert", source, "a.mbtiles", "--quiet", "--mbtiles-schema", "flat-with-hash"], in: directory).status == 0)
        let clean = try ToolRunner.run(["verify", "a.mbtiles"], in: directory)
        #expect(clean.status == 0)
        #expect(clean.stdout == "a.mbtiles: OK, 21 tiles checked\n")
        let same = try ToolRunner.run(["verify", "a.mbtiles", source], in: directory)
        #expect(same.status == 0)
        #expect(same.stdout == "a.mbtiles and \(source) hold the same 21 tiles\n")
        #expect(FileManager.default.createFile(atPath: source + "/2/3/3.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("changed".utf8))))
        let differ = try ToolRunner.run(["verify", "a.mbtiles", source], in: directory)
        #expect(differ.status == 1)
        #expect(differ.stdout == """
            different: 2/3/3 (13 bytes 75953044ED2DF81576814CF57E717F7E vs 15 bytes FE7C6ADC41FC636250E576F188AE5A35)
            a.mbtiles and \(source) differ: 0 only in a.mbtiles, 0 only in \(source), 1 different, 20 the same

            """)
        let metadata = String(decoding: FileManager.default.contents(atPath: source + "/metadata.json") ?? Data(), as: UTF8.self)
        #expect(FileManager.default.createFile(atPath: source + "/metadata.json", contents: Data(metadata.replacingOccurrences(of: "\"e2e\"", with: "\"e2e\", \"maxzoom\": \"1\"").utf8)))
        let warnings = try ToolRunner.run(["verify", source], in: directory)
        #expect(warnings.status == 0, "metadata that does not describe the tiles is a warning: the data is sound")
        #expect(warnings.stdout.hasPrefix("Warning: \(source): metadata maxzoom: is 1, but there are tiles at zoom 2\n"))
        #expect(warnings.stdout.hasSuffix("\(source): OK, 21 tiles checked, 1 warning\n"))
        let original = FileManager.default.contents(atPath: source + "/1/0/0.png") ?? Data()
        #expect(FileManager.default.createFile(atPath: source + "/1/0/0.png", contents: Data()))
        let problems = try ToolRunner.run(["verify", source], in: directory)
        #expect(problems.status == 1)
        #expect(problems.stdout.hasSuffix("\(source): 1 problems (1 invalid tile), 20 tiles checked, 1 warning\n"), "\(problems.stdout)")
        #expect(FileManager.default.createFile(atPath: source + "/1/0/0.png", contents: original))
        let fixed = try ToolRunner.run(["verify", source, "--fix", "--quiet"], in: directory)
        #expect(fixed.status == 0)
        #expect(try ToolRunner.run(["verify", source], in: directory).status == 0)
        #expect(try ToolRunner.run(["verify", "a.mbtiles", source, "--fix"], in: directory).status == 2)
    }

    @Test("sync and diff: plan, apply, nothing to do, JSON lines, exit codes")
    func syncAndDiff() throws {
        let source = try makeFolder("src")
        let created = try ToolRunner.run(["sync", source, "copy.mbtiles"], in: directory)
        #expect(created.status == 0)
        #expect(created.stdout.hasPrefix("Synced \(source) to copy.mbtiles (created): 21 added, 0 replaced, 0 deleted, 0 unchanged, 273 B written, metadata updated in "))
        let same = try ToolRunner.run(["diff", source, "copy.mbtiles"], in: directory)
        #expect(same.status == 0)
        #expect(same.stdout == "add: 0 tiles (0 B)\nreplace: 0 tiles (0 B)\ndelete: 0 tiles (0 B)\nunchanged: 21 tiles\nmetadata: same\n")
        #expect(FileManager.default.createFile(atPath: source + "/2/0/0.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x21])))
        try FileManager.default.removeItem(atPath: source + "/2/3/3.png")
        let plan = try ToolRunner.run(["diff", source, "copy.mbtiles", "--json"], in: directory)
        #expect(plan.status == 1)
        let lines = plan.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == #"{"action":"replace","tile":"2/0/0","z":2,"x":0,"y":0,"size":9}"#)
        #expect(lines[1] == #"{"action":"delete","tile":"2/3/3","z":2,"x":3,"y":3,"size":13}"#)
        #expect(lines[2].hasPrefix(#"{"summary":{"source":"\#(source)","destination":"copy.mbtiles","added":0,"replaced":1,"deleted":1,"kept":0,"unchanged":19,"#))
        let dry = try ToolRunner.run(["sync", source, "copy.mbtiles", "--delete", "--dry-run"], in: directory)
        #expect(dry.stdout == "replace 2/0/0 (9 bytes)\ndelete 2/3/3 (13 bytes)\nDry run, nothing changed: would write 9 B; 0 added, 1 replaced, 1 deleted, 19 unchanged\n")
        let applied = try ToolRunner.run(["sync", source, "copy.mbtiles", "--delete", "--json"], in: directory)
        #expect(applied.status == 0)
        #expect(applied.stdout.hasPrefix(#"{"source":"\#(source)","destination":"copy.mbtiles","added":0,"replaced":1,"deleted":1,"kept":0,"unchanged":19,"bytes_written":9,"#))
        let noop = try ToolRunner.run(["sync", source, "copy.mbtiles", "--delete"], in: directory)
        #expect(noop.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 20 unchanged in "))
        #expect(try ToolRunner.run(["verify", source, "copy.mbtiles"], in: directory).status == 0)
        #expect(try ToolRunner.run(["sync", source], in: directory).status == 2)
    }

    @Test("diff --patch and apply: martin's format, exact lines, wrong base refused with exit 1, a second apply does nothing")
    func patchFiles() throws {
        let old = try makeFolder("old")
        let new = try makeFolder("new")
        #expect(FileManager.default.createFile(atPath: new + "/2/0/0.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x21])))
        try FileManager.default.removeItem(atPath: new + "/2/3/3.png")
        #expect(FileManager.default.createFile(atPath: new + "/metadata.json", contents: Data(#"{"name":"e2e v2","attribution":"© test"}"#.utf8)))
        #expect(try ToolRunner.run(["convert", old, "app.mbtiles"], in: directory).status == 0)

        let made = try ToolRunner.run(["diff", "app.mbtiles", new, "--patch", "update.mbtiles", "--json"], in: directory)
        #expect(made.status == 0 && made.stderr == "")
        let fields = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(fields["added"] as? Int == 0 && fields["replaced"] as? Int == 1 && fields["deleted"] as? Int == 1)
        #expect(fields["metadata_changes"] as? Int == 1 && fields["bytes_put"] as? Int == 9)
        let before = fields["agg_tiles_hash_before_apply"] as? String ?? "", after = fields["agg_tiles_hash_after_apply"] as? String ?? ""
        #expect(before.count == 32 && after.count == 32 && before != after)

        let again = try ToolRunner.run(["diff", "app.mbtiles", new, "--patch", "update.mbtiles"], in: directory)
        #expect(again.status == 1 && again.stderr == "Error: update.mbtiles: already exists (pass --force to replace it)\n")
        let remade = try ToolRunner.run(["diff", "app.mbtiles", new, "--patch", "update.mbtiles", "--force"], in: directory)
        #expect(remade.status == 0)
        #expect(remade.stdout.contains("): 0 added, 1 replaced, 1 deleted (9 B of tiles), 1 metadata change in "))
        #expect(remade.stdout.hasSuffix("\nApplies to agg_tiles_hash \(before) (app.mbtiles), gives \(after)\n"))

        let described = try ToolRunner.run(["info", "update.mbtiles"], in: directory)
        #expect(described.stdout.contains("\n  patch: 1 tiles to put, 1 to delete, 1 metadata change; applies to agg_tiles_hash \(before), gives \(after) (tilesync apply)\n"),
                "\(described.stdout)")
        #expect(try ToolRunner.run(["convert", old, "other.mbtiles", "--max-zoom", "1"], in: directory).status == 0)
        let wrong = try ToolRunner.run(["apply", "update.mbtiles", "other.mbtiles"], in: directory)
        #expect(wrong.status == 1 && wrong.stdout == "")
        #expect(wrong.stderr.hasPrefix("Error: other.mbtiles: has agg_tiles_hash "))
        #expect(wrong.stderr.hasSuffix(", but the patch update.mbtiles was made for a store with \(before); nothing was changed "
            + "(apply it to the store it was made from, or pass --force to apply it anyway)\n"))

        let applied = try ToolRunner.run(["apply", "update.mbtiles", "app.mbtiles"], in: directory)
        #expect(applied.status == 0 && applied.stderr == "")
        #expect(applied.stdout.hasPrefix("Applied update.mbtiles to app.mbtiles: 0 added, 1 replaced, 1 deleted, 1 metadata change (9 B written) in "))
        #expect(applied.stdout.hasSuffix("\nagg_tiles_hash \(before) -> \(after)\n"))
        #expect(try ToolRunner.run(["verify", new, "app.mbtiles"], in: directory).status == 0)
        #expect(try ToolRunner.run(["info", "app.mbtiles"], in: directory).stdout.contains("\n  name: e2e v2\n"))
        let second = try ToolRunner.run(["apply", "update.mbtiles", "app.mbtiles"], in: directory)
        #expect(second.status == 0 && second.stdout == "Nothing to do: app.mbtiles already holds what update.mbtiles gives (agg_tiles_hash \(after))\n")

        let folderCopy = try makeFolder("folder-copy")
        let json = try ToolRunner.run(["apply", "update.mbtiles", folderCopy, "--json"], in: directory)
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix(#"{"patch":"update.mbtiles","store":"\#(folderCopy)","already_applied":false,"added":0,"replaced":1,"deleted":1,"absent_deletions":0,"bytes_put":9,"metadata_changes":1,"agg_tiles_hash_before":"\#(before)","agg_tiles_hash_after":"\#(after)","#))
        #expect(try ToolRunner.run(["verify", new, folderCopy], in: directory).status == 0)

        let usage = try ToolRunner.run(["diff", "app.mbtiles", new, "--force"], in: directory)
        #expect(usage.status == 2 && usage.stderr.hasPrefix("Error: --force replaces a patch file: it needs --patch\n"))
        let missing = try ToolRunner.run(["apply", "nothing.mbtiles", "app.mbtiles"], in: directory)
        #expect(missing.status == 1 && missing.stderr == "Error: nothing.mbtiles: no such patch file\n")
    }

    @Test("meta: list, print one value for scripts, set and remove on every kind, refusals exit 1 or 2")
    func meta() throws {
        let folder = try makeFolder("tree")
        #expect(try ToolRunner.run(["convert", folder, "a.mbtiles"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", folder, "a.tar"], in: directory).status == 0)
        #expect(try ToolRunner.run(["convert", folder, "a.pmtiles"], in: directory).status == 0)
        let list = try ToolRunner.run(["meta", folder], in: directory)
        #expect(list.status == 0 && list.stdout == "name: e2e\nattribution: © test\n")
        let one = try ToolRunner.run(["meta", "a.mbtiles", "attribution"], in: directory)
        #expect(one.status == 0 && one.stdout == "© test\n" && one.stderr == "")
        for store in [folder, "a.mbtiles", "a.tar", "a.pmtiles"] {
            let set = try ToolRunner.run(["meta", store, "name=Renamed", "legend=<b>x</b>"], in: directory)
            #expect(set.status == 0 && set.stdout == "\(store): set legend, name\n", "\(store)")
            #expect(try ToolRunner.run(["meta", store, "name"], in: directory).stdout == "Renamed\n", "\(store)")
            let removed = try ToolRunner.run(["meta", store, "--delete", "legend", "attribution"], in: directory)
            #expect(removed.status == 0 && removed.stdout == "\(store): removed legend, attribution\n", "\(store)")
            let absent = try ToolRunner.run(["meta", store, "legend"], in: directory)
            #expect(absent.status == 1 && absent.stdout == "" && absent.stderr == "Error: \(store): metadata legend: no such key\n")
            let json = try ToolRunner.run(["meta", store, "--json"], in: directory)
            #expect(json.stdout.contains(#""name":"Renamed""#) && !json.stdout.contains("attribution"), "\(store)")
            #expect(try ToolRunner.run(["verify", folder, store], in: directory).status == 0, "tiles untouched: \(store)")
        }
        let managed = try ToolRunner.run(["meta", "a.mbtiles", "agg_tiles_hash=0"], in: directory)
        #expect(managed.status == 1 && managed.stderr == "Error: a.mbtiles: metadata agg_tiles_hash: is computed from the tiles and cannot be edited (`tilesync verify --fix` rewrites it)\n")
        #expect(try ToolRunner.run(["meta", "a.mbtiles", "name", "x=y"], in: directory).status == 2)
        #expect(try ToolRunner.run(["meta", "a.mbtiles", "--delete"], in: directory).status == 2)
        #expect(try ToolRunner.run(["meta", "a.mbtiles", "=x"], in: directory).status == 2)
    }

    @Test("tile: point, z/x/y, TMS input, quadkey, bbox, JSON")
    func tile() throws {
        let point = try ToolRunner.run(["tile", "--lon", "13.4", "--lat", "52.5", "--zoom", "10"])
        #expect(point.status == 0)
        #expect(point.stdout == """
            xyz:      10/550/335
            tms:      10/550/688  (MBTiles zoom_level 10, tile_column 550, tile_row 688)
            quadkey:  1202102332
            pmtiles:  tile ID 1241624
            bounds:   13.359375,52.48278,13.710938,52.696361  (west,south,east,north)

            """)
        #expect(try ToolRunner.run(["tile", "11/327/791", "--json"]).stdout
            == #"{"z":11,"x":327,"y":791,"tms_y":1256,"quadkey":"02301020333","pmtiles_tile_id":2230485,"bounds":"-122.519531,37.71859,-122.34375,37.857507"}"# + "\n")
        #expect(try ToolRunner.run(["tile", "11/327/1256", "--tms", "--json"]).stdout.hasPrefix(#"{"z":11,"x":327,"y":791,"#))
        #expect(try ToolRunner.run(["tile", "--quadkey", "02301020333", "--json"]).stdout.hasPrefix(#"{"z":11,"x":327,"y":791,"#))
        #expect(try ToolRunner.run(["tile", "--tile-id", "2230485", "--json"]).stdout.hasPrefix(#"{"z":11,"x":327,"y":791,"#))
        #expect(try ToolRunner.run(["tile", "--tile-id", "19078479"]).stdout.hasPrefix("xyz:      12/3423/1763\n"))
        let box = try ToolRunner.run(["tile", "--bbox", "13.08,52.33,13.77,52.68", "--min-zoom", "8", "--max-zoom", "10"])
        #expect(box.stdout == """
            bbox:     13.08,52.33,13.77,52.68
            fits one tile at zoom 9
              z8: x 137-137, y 83-84 (2 tiles)
              z9: x 274-275, y 167-168 (4 tiles)
              z10: x 549-551, y 335-336 (6 tiles)
            total:    12 tiles

            """)
        let negative = try ToolRunner.run(["tile", "--lon", "-180", "--lat", "-85.0511287798066", "--zoom", "2", "--json"])
        #expect(negative.stdout.hasPrefix(#"{"z":2,"x":0,"y":3,"#))
    }

    @Test("Store options are checked against the store's kind before any work: foreign or contradicting ones exit 2")
    func storeOptions() throws {
        let source = try makeFolder("src")
        let usage = "Usage: tilesync convert [<options>] <source> ... <destination>\n  See 'tilesync convert --help'.\n"
        let cases: [([String], String)] = [
            (["convert", source, "a.mbtiles", "--layout", "{z}/{y}/{x}.png"],
             "Error: --layout does not apply to the MBTiles a.mbtiles (it applies to folder, tar archive and S3 stores)\n" + usage),
            (["convert", source, "a.mbtiles", "--scheme", "tms"],
             "Error: --scheme does not apply to the MBTiles a.mbtiles (it applies to folder, tar archive and S3 stores)\n" + usage),
            (["convert", source, "out", "--mbtiles-schema", "normalized"],
             "Error: --mbtiles-schema does not apply to the folder out (it applies to MBTiles stores)\n" + usage),
            (["convert", source, "a.mbtiles", "--dedup", "--mbtiles-schema", "flat"],
             "Error: --dedup: an MBTiles stores each blob once in the normalized schema, not flat (drop one of the two options)\n" + usage),
            (["convert", source, "a.mbtiles", "--mbtiles-schema", "round"],
             "Error: --mbtiles-schema must be flat, flat-with-hash or normalized, not 'round'\n" + usage),
            (["sync", source, "out", "--mbtiles-schema", "flat"],
             "Error: --mbtiles-schema does not apply to the folder out (it applies to MBTiles stores)\n"
                + "Usage: tilesync sync [<options>] <source> ... <destination>\n  See 'tilesync sync --help'.\n"),
            (["verify", source, "--max-zoom", "3"],
             "Error: --min-zoom, --max-zoom, --bbox and --shard limit a comparison of two stores\n"
                + "Usage: tilesync verify [<options>] <store> [<other> ...]\n  See 'tilesync verify --help'.\n"),
        ]
        for (arguments, stderr) in cases {
            let result = try ToolRunner.run(arguments, in: directory)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == stderr)
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/a.mbtiles") && !FileManager.default.fileExists(atPath: directory + "/out"))
        let deduplicated = try ToolRunner.run(["convert", source, "d.mbtiles", "--dedup"], in: directory)
        #expect(deduplicated.status == 0)
        #expect(deduplicated.stdout.hasSuffix("21 distinct blobs, 0 B saved by dedup\n"))
        #expect(try ToolRunner.run(["info", "d.mbtiles"], in: directory).stdout.contains("\nschema:   normalized\n"))
        let tms = try ToolRunner.run(["convert", source, "t.tar", "--scheme", "tms", "--quiet"], in: directory)
        #expect(tms.status == 0)
        #expect(try ToolRunner.run(["verify", "t.tar", source], in: directory).stdout == "t.tar and \(source) hold the same 21 tiles\n")
    }
}
