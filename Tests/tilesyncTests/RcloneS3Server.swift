import Foundation

/// `rclone serve s3` on 127.0.0.1 for end-to-end tests: the port is chosen by rclone (`:0`)
/// and read from its start-up line; buckets are folders of a temporary root.
final class RcloneS3Server {
    static let accessKey = "E2EKEY"
    static let secretKey = "e2e-secret-value"
    static let executable: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + [NSHomeDirectory() + "/.pyenv/shims", "/usr/local/bin"]
        return paths.map { $0 + "/rclone" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    let root: String
    let endpoint: String
    private let process: Process

    init(root: String, bucket: String = "tiles") throws {
        guard let executable = Self.executable else { throw CocoaError(.fileNoSuchFile) }
        self.root = root
        try FileManager.default.createDirectory(atPath: root + "/" + bucket, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // A short directory cache (see `S3TestServer.serverOptions`): rclone 1.75 can keep a
        // just-written object pointing at its temporary upload file for the cache's 5 minutes.
        process.arguments = ["serve", "s3", "--auth-key", "\(Self.accessKey),\(Self.secretKey)", "--addr", "127.0.0.1:0",
                             "--config", "/dev/null", "--dir-cache-time", "2s", root]
        let log = Pipe()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = ""
        var endpoint: String?
        while endpoint == nil, let chunk = try log.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
            if let start = text.range(of: "[http://127.0.0.1:"), let end = text[start.upperBound...].firstIndex(of: "/") {
                endpoint = "http://127.0.0.1:" + text[start.upperBound..<end]
            }
        }
        guard let endpoint else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        self.endpoint = endpoint
        self.process = process
        // Keep draining the log so rclone never blocks on a full pipe.
        let handle = log.fileHandleForReading
        Thread.detachNewThread { while let data = try? handle.read(upToCount: 65536), !data.isEmpty {} }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The environment of a `tilesync` run against this server: the test key pair, no profile,
    /// and its sync states under this server's root (not a `TILESYNC_CACHE` another test set).
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AWS_") && $0.key != "TILESYNC_CACHE" }
        environment["AWS_ACCESS_KEY_ID"] = Self.accessKey
        environment["AWS_SECRET_ACCESS_KEY"] = Self.secretKey
        environment["AWS_ENDPOINT_URL"] = endpoint
        environment["HOME"] = root
        return environment
    }
}
