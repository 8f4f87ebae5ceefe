import Foundation
import Testing
@testable import TileSync

@Suite("Reliability of the tilesync binary")
final class ReliabilityEndToEndTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-reliability-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    static let fixtureRoot: String = {
        if let override = ProcessInfo.processInfo.environment["TILESYNC_FIXTURES"], !override.isEmpty { return override }
        return ToolRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
    }()
    static var fixturesAvailable: Bool { FileManager.default.fileExists(atPath: fixtureRoot + "/README.md") }

    static let badFixtures: [(String, String)] = [
        ("node-mbtiles/corrupt.mbtiles", "damaged SQLite database (database disk image is malformed) (the file may be truncated; fetch it again)"),
        ("mapbox-tile-copy/invalid.corrupt.mbtiles", "damaged SQLite database (database disk image is malformed) (the file may be truncated; fetch it again)"),
        ("mapbox-upload-validate/invalid.mbtiles-notadb.mbtiles", "not an SQLite database (file is not a database)"),
        ("mapbox-upload-validate/invalid.mbtiles-notiledata.mbtiles", "table tiles: has no column zoom_level, tile_column, tile_row, tile_data (it has image, x, y, z) (an MBTiles tiles table has zoom_level, tile_column, tile_row, tile_data)"),
        ("node-mbtiles/corrupt_null_tile.mbtiles", "tile 1/0/1 (TMS row 0): tile_data is NULL (--skip-invalid skips such tiles and counts them)"),
        ("mapbox-tile-copy/invalid.null-tile.mbtiles", "tile 1/0/1 (TMS row 0): tile_data is NULL (--skip-invalid skips such tiles and counts them)"),
        ("martin/files/invalid-tile-idx.mbtiles", "tile zoom_level 6, tile_column 10, tile_row 64: TMS row 64 is out of range at zoom 6 (0...63) (--skip-invalid skips such tiles and counts them)"),
        ("martin/files/invalid.mbtiles", "SQLite database with no tables, not an MBTiles file"),
        ("tar/hostile.tar", "entry '2/9/1.png': column x=9 is out of range at zoom 2 (0...3) (--skip-invalid skips such tiles and counts them)"),
    ]

    @Test("Each bad-input fixture: exit 1, one exact line on stderr, nothing created",
          .enabled(if: fixturesAvailable, "shared fixtures not found: SKIPPED"), arguments: badFixtures)
    func badFixture(fixture: String, message: String) throws {
        let source = Self.fixtureRoot + "/" + fixture
        for destination in ["out.mbtiles", "out-folder", "out.tar"] {
            let result = try ToolRunner.run(["convert", source, destination], in: directory)
            #expect(result.status == 1)
            #expect(result.stderr == "Error: \(source): \(message)\n")
            #expect(result.stdout.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        }
    }

    /// A generated source of `count` tiles of about 1.5 KB, and its contents.
    func makeSource(_ name: String, count: Int, salt: String) throws -> String {
        let path = directory + "/" + name
        try GeneratedSource.write(to: path, count: count, payload: 1500, salt: salt, overwrite: true)
        return path
    }

    /// Runs tilesync and kills it with SIGKILL after `delay` seconds (if still running).
    func runAndKill(_ arguments: [String], after delay: Double, environment: [String: String]? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.binary)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func identical(_ a: String, _ b: String) throws -> Bool {
        try StoreComparison.compare(try TileStoreLocation(parsing: a), try TileStoreLocation(parsing: b)).isIdentical
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tilesync-") && !$0.hasSuffix(".tilesync-state") }
    }

    @Test("kill -9 during convert: the destination is absent or complete; the next run cleans up", arguments: ["out.mbtiles", "out-folder", "out.tar.gz"])
    func killDuringConvert(destination: String) throws {
        let source = try makeSource("a.mbtiles", count: 12_000, salt: "a")
        let started = Date()
        #expect(try ToolRunner.run(["convert", source, "timing-" + destination], in: directory).status == 0)
        let duration = Date().timeIntervalSince(started)
        var generator = SplitMix64(seed: 7)
        for _ in 0..<4 {
            let delay = Double.random(in: 0.05...max(0.1, duration), using: &generator)
            _ = try runAndKill(["convert", source, destination, "--force"], after: delay)
            let target = directory + "/" + destination
            if AtomicFile.exists(target) { #expect(try identical(source, target), "after a kill at \(delay) s") }
        }
        #expect(try ToolRunner.run(["convert", source, destination, "--force", "--quiet"], in: directory).status == 0)
        #expect(try identical(source, directory + "/" + destination))
        #expect(try leftovers() == [])
    }

    @Test("kill -9 during a merge of several sources (streamed, or PMTiles joined): the destination is as it was or the whole merge",
          arguments: ["mbtiles", "pmtiles"])
    func killDuringMerge(kind: String) throws {
        let sources = try (0..<3).map { index in
            let path = directory + "/s\(index).\(kind)"
            if kind == "pmtiles" {
                let whole = try makeSource("whole-\(index).mbtiles", count: 4_000 + 16_384 * index, salt: "s\(index)")
                let zooms = [["--max-zoom", "5"], ["--min-zoom", "6", "--max-zoom", "6"], ["--min-zoom", "7", "--max-zoom", "7"]][index]
                #expect(try ToolRunner.run(["convert", whole, path, "--quiet"] + zooms, in: directory).status == 0)
                return path
            }
            return try makeSource("s\(index).mbtiles", count: 8_000, salt: "s\(index)")
        }
        let old = try makeSource("old.mbtiles", count: 500, salt: "old")
        let target = directory + "/merged." + kind
        #expect(try ToolRunner.run(["convert", old, target, "--quiet"], in: directory).status == 0)
        let merged = try TileStoreLocation.merging(sources.map { try TileStoreLocation(parsing: $0) }, onDuplicate: .override)
        let started = Date()
        let timing = try ToolRunner.run(["convert"] + sources + ["timing." + kind, "--on-duplicate", "override"], in: directory)
        #expect(timing.status == 0)
        #expect(timing.stderr.contains("only the directories were written anew") == (kind == "pmtiles"))
        let duration = Date().timeIntervalSince(started)
        var generator = SplitMix64(seed: 5)
        for _ in 0..<4 {
            let delay = Double.random(in: 0.02...max(0.05, duration), using: &generator)
            _ = try runAndKill(["convert"] + sources + [target, "--force", "--on-duplicate", "override"], after: delay)
            let asBefore = try identical(old, target)
            let complete = try StoreComparison.compare(merged, try TileStoreLocation(parsing: target)).isIdentical
            #expect(asBefore || complete, "after a kill at \(delay) s")
        }
        #expect(try ToolRunner.run(["convert"] + sources + [target, "--force", "--on-duplicate", "override", "--quiet"], in: directory).status == 0)
        #expect(try StoreComparison.compare(merged, try TileStoreLocation(parsing: target)).isIdentical)
        let left = try leftovers()
        #expect(left == [], "\(left)")
    }

    @Test("kill -9 during sync: the destination is as it was or synced; the next sync completes it", arguments: ["b.mbtiles", "b-folder", "b.tar"])
    func killDuringSync(destination: String) throws {
        let old = try makeSource("old.mbtiles", count: 12_000, salt: "old")
        let new = try makeSource("new.mbtiles", count: 12_000, salt: "new")
        let target = directory + "/" + destination
        #expect(try ToolRunner.run(["sync", old, "timing-" + destination, "--quiet"], in: directory).status == 0)
        let started = Date()
        #expect(try ToolRunner.run(["sync", new, "timing-" + destination, "--quiet"], in: directory).status == 0)
        let duration = Date().timeIntervalSince(started)
        var generator = SplitMix64(seed: 11)
        for _ in 0..<3 {
            #expect(try ToolRunner.run(["sync", old, destination, "--delete", "--quiet"], in: directory).status == 0)
            let delay = Double.random(in: 0.05...max(0.1, duration), using: &generator)
            _ = try runAndKill(["sync", new, destination, "--delete"], after: delay)
            let journal = AtomicFile.exists(target + "/.tilesync-journal")
            if !journal {
                let asBefore = try identical(old, target), synced = try identical(new, target)
                #expect(asBefore || synced, "after a kill at \(delay) s")
            }
            #expect(try ToolRunner.run(["sync", new, destination, "--delete", "--quiet"], in: directory).status == 0)
            #expect(try identical(new, target))
            #expect(try ToolRunner.run(["verify", destination, "--quiet"], in: directory).status == 0)
        }
        #expect(try leftovers() == [])
    }

    @Test("kill -9 during apply: the store is as it was or patched; the next apply completes it or has nothing to do", arguments: ["b.mbtiles", "b-folder", "b.tar"])
    func killDuringApply(destination: String) throws {
        let old = try makeSource("old.mbtiles", count: 12_000, salt: "old")
        let new = try makeSource("new.mbtiles", count: 12_000, salt: "new")
        #expect(try ToolRunner.run(["diff", old, new, "--patch", "update.mbtiles"], in: directory).status == 0)
        let target = directory + "/" + destination
        #expect(try ToolRunner.run(["convert", old, "timing-" + destination, "--quiet"], in: directory).status == 0)
        let started = Date()
        #expect(try ToolRunner.run(["apply", "update.mbtiles", "timing-" + destination, "--quiet"], in: directory).status == 0)
        let duration = Date().timeIntervalSince(started)
        var generator = SplitMix64(seed: 17)
        for _ in 0..<3 {
            #expect(try ToolRunner.run(["convert", old, destination, "--force", "--quiet"], in: directory).status == 0)
            let delay = Double.random(in: 0.05...max(0.1, duration), using: &generator)
            _ = try runAndKill(["apply", "update.mbtiles", destination], after: delay)
            if !AtomicFile.exists(target + "/.tilesync-journal") {
                let asBefore = try identical(old, target), patched = try identical(new, target)
                #expect(asBefore || patched, "after a kill at \(delay) s")
            }
            #expect(try ToolRunner.run(["apply", "update.mbtiles", destination, "--quiet"], in: directory).status == 0)
            #expect(try identical(new, target))
            #expect(try ToolRunner.run(["verify", destination, "--quiet"], in: directory).status == 0)
        }
        #expect(try leftovers() == [])
    }

    @Test("kill -9 during a chain apply: the store is as it was or at the chain's end; the same command completes it",
          arguments: ["c.mbtiles", "c-folder"])
    func killDuringChainApply(destination: String) throws {
        let days = try (0...3).map { try makeSource("day\($0).mbtiles", count: 6_000, salt: "day \($0)") }
        for day in 1...3 {
            #expect(try ToolRunner.run(["diff", days[day - 1], days[day], "--patch", "p\(day).mbtiles"], in: directory).status == 0)
        }
        let chain = ["apply", "p1.mbtiles", "p2.mbtiles", "p3.mbtiles", destination]
        let target = directory + "/" + destination
        let temporaryFolder = directory + "/tmp"
        try FileManager.default.createDirectory(atPath: temporaryFolder, withIntermediateDirectories: false)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporaryFolder
        #expect(try ToolRunner.run(["convert", days[0], "timing-" + destination, "--quiet"], in: directory).status == 0)
        let started = Date()
        #expect(try ToolRunner.run(Array(chain.dropLast()) + ["timing-" + destination, "--quiet"], in: directory).status == 0)
        let duration = Date().timeIntervalSince(started)
        var generator = SplitMix64(seed: 23)
        var killed = 0
        for _ in 0..<3 {
            #expect(try ToolRunner.run(["convert", days[0], destination, "--force", "--quiet"], in: directory).status == 0)
            let delay = Double.random(in: 0.05...max(0.1, duration), using: &generator)
            if try runAndKill(chain, after: delay, environment: environment) == SIGKILL { killed += 1 }
            if !AtomicFile.exists(target + "/.tilesync-journal") {
                let asBefore = try identical(days[0], target), atEnd = try identical(days[3], target)
                #expect(asBefore || atEnd, "after a kill at \(delay) s")
            }
            #expect(try ToolRunner.run(chain + ["--quiet"], in: directory, environment: environment).status == 0)
            #expect(try identical(days[3], target))
            #expect(try ToolRunner.run(["verify", destination, "--quiet"], in: directory).status == 0)
            let leftInTemporaryFolder = try FileManager.default.contentsOfDirectory(atPath: temporaryFolder)
            #expect(leftInTemporaryFolder == [], "the folded chain of a killed run is removed by the next")
        }
        #expect(killed > 0)
        #expect(try leftovers() == [])
    }

    /// A tiles view of 100 million rows in a few kilobytes.
    func crossJoin(_ name: String) throws {
        let connection = try SQLiteConnection(path: directory + "/" + name, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE a (n INTEGER);
            WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < 9999) INSERT INTO a SELECT n FROM r;
            CREATE VIEW tiles AS SELECT 20 AS zoom_level, x.n AS tile_column, y.n AS tile_row, x'89504e470d0a1a0a' AS tile_data
                FROM a AS x, a AS y;
            """)
    }

    @Test("info on a tiles view of 100 million rows answers within seconds, with a bounded count; convert refuses by --max-tiles")
    func boundedView() throws {
        try crossJoin("big.mbtiles")
        let started = Date()
        let info = try ToolRunner.run(["info", "big.mbtiles"], in: directory)
        #expect(info.status == 0)
        #expect(info.stdout.contains("\ntiles:    at least 1000001\n"), "\(info.stdout.prefix(400))")
        #expect(info.stdout.contains("agg hash: - (not computed: it would read more than 50000000 tiles)"))
        let convert = try ToolRunner.run(["convert", "big.mbtiles", "out.pmtiles"], in: directory)
        #expect(convert.status == 1)
        #expect(convert.stderr == "Error: big.mbtiles: holds more than 50000000 tiles, the limit of --max-tiles; stopped before reading them "
            + "(pass a larger --max-tiles to allow it)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["big.mbtiles"])
        #expect(Date().timeIntervalSince(started) < 20)
    }

    /// The archive: one root entry runs 2^31 tiles, the header says 2 tiles up to zoom 1.
    /// - Parameter honest: the run covers zoom 15 (2^30 tiles) and the header says so.
    static func runLengthArchive(honest: Bool = false) throws -> [UInt8] {
        let tile = try GzipCodec.compress([0x1a, 0x00])
        let run = honest ? PMTilesEntry(tileID: TileID.firstID(ofZoom: 15), offset: 0, length: UInt32(tile.count), runLength: 1 << 30)
            : PMTilesEntry(tileID: 0, offset: 0, length: UInt32(tile.count), runLength: 1 << 31)
        let root = try GzipCodec.compress(PMTilesDirectory.encode([run]))
        let metadata = try GzipCodec.compress(Array("{}".utf8))
        var header = PMTilesHeader()
        header.rootOffset = 127
        header.rootLength = UInt64(root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(metadata.count)
        header.leafDirectoriesOffset = header.metadataOffset + header.metadataLength
        header.tileDataOffset = header.leafDirectoriesOffset
        header.tileDataLength = UInt64(tile.count)
        (header.addressedTilesCount, header.tileEntriesCount, header.tileContentsCount) = (2, 1, 1)
        header.isClustered = true
        header.tileCompressionValue = PMTilesHeader.Compression.gzip.rawValue
        header.tileTypeValue = PMTilesHeader.TileType.mvt.rawValue
        (header.minZoom, header.maxZoom) = honest ? (15, 15) : (0, 1)
        if honest { header.addressedTilesCount = 1 << 30 }
        (header.minLongitudeE7, header.minLatitudeE7, header.maxLongitudeE7, header.maxLatitudeE7) = (-1_800_000_000, -850_000_000, 1_800_000_000, 850_000_000)
        return header.serialized() + root + metadata + tile
    }

    @Test("A 200-byte PMTiles whose one run claims 2^31 tiles: info, verify, convert and sync exit 1 within seconds and write nothing")
    func runLengthArchive() throws {
        let bytes = try Self.runLengthArchive()
        #expect(bytes.count < 300)
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/run.pmtiles"))
        let problem = "root directory: the entry at tile ID 0 runs 2147483648 tiles, past tile ID 4, the last of the header's max zoom 1"
        for arguments in [["info", "run.pmtiles"], ["convert", "run.pmtiles", "out.mbtiles"], ["convert", "run.pmtiles", "out-folder"],
                          ["sync", "run.pmtiles", "out.tar"]] {
            let started = Date()
            let result = try ToolRunner.run(arguments, in: directory)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "Error: run.pmtiles: \(problem)\n", "\(arguments)")
            #expect(Date().timeIntervalSince(started) < 5, "\(arguments)")
        }
        let verify = try ToolRunner.run(["verify", "run.pmtiles"], in: directory)
        #expect(verify.status == 1)
        #expect(verify.stdout == "Problem: run.pmtiles: \(problem)\nNote: its tiles were not read: the damage keeps them from being counted\n"
                + "run.pmtiles: 1 problems (1 integrity), 0 tiles checked\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["run.pmtiles"])
    }

    /// Starts `tilesync ARGUMENTS`, sends `signals` after `delay` seconds (0.05 s apart), and
    /// returns the exit status, standard error and the seconds from the first signal to the exit.
    func signalled(_ arguments: [String], signals: [Int32], after delay: Double) throws -> (status: Int32, stderr: String, seconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        let signalled = Date()
        for signal in signals {
            kill(process.processIdentifier, signal)
            Thread.sleep(forTimeInterval: 0.05)
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr, Date().timeIntervalSince(signalled))
    }

    @Test("A signal while a PMTiles run of 2^30 tiles is spooled into row order: exit 130 within a second, no destination, no temporaries",
          arguments: [[SIGINT], [SIGTERM, SIGTERM]])
    func signalDuringSpool(signals: [Int32]) throws {
        try Data(try Self.runLengthArchive(honest: true)).write(to: URL(fileURLWithPath: directory + "/ocean.pmtiles"))
        let result = try signalled(["convert", "ocean.pmtiles", "out.mbtiles", "--max-tiles", "2000000000", "--no-space-check"],
                                   signals: signals, after: 0.4)
        #expect(result.status == 130)
        #expect(result.seconds < 1.5, "\(result.seconds) s")
        #expect(result.stderr.hasSuffix("Error: out.mbtiles: interrupted; the destination was not changed\n"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["ocean.pmtiles"])
    }

    @Test("verify on a tiles view of 100 million rows: a status line while it counts, Ctrl-C stops it")
    func statusAndInterruptWhileCounting() throws {
        let command = "verify", status = "big.mbtiles: checking tiles ... "
        try crossJoin("big.mbtiles")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.binary)
        process.arguments = [command, "big.mbtiles", "--max-tiles", "1000000000"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(["TILESYNC_PROGRESS": "1"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        let signalled = Date()
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Date().timeIntervalSince(signalled) < 5)
        #expect(stderr.contains("\r\u{1B}[K" + status), "\(stderr.suffix(300))")
        #expect(stderr.hasSuffix(" s (Ctrl-C stops)\r\u{1B}[KError: big.mbtiles: interrupted\n"), "\(stderr.suffix(300))")
        let small = try makeSource("small.mbtiles", count: 10, salt: "s")
        let quiet = try ToolRunner.run([command, small], in: directory)
        #expect(quiet.status == 0 && quiet.stderr == "", "no status line when standard error is not a terminal")
    }

    @Test("Ctrl-C (SIGINT): exit 130, a one-line message, no destination and no temporaries")
    func interrupt() throws {
        let source = try makeSource("a.mbtiles", count: 20_000, salt: "a")
        for destination in ["out.mbtiles", "out-folder", "out.tar"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ToolRunner.binary)
            process.arguments = ["convert", source, destination]
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: 0.3)
            kill(process.processIdentifier, SIGINT)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus == 0 { continue }
            #expect(process.terminationStatus == 130)
            #expect(stderr == "Error: \(destination): interrupted; the destination was not changed\n")
            #expect(!AtomicFile.exists(directory + "/" + destination))
            #expect(try leftovers() == [])
        }
    }
}
