import Foundation

/// `Tests/Tools/s3-fault-proxy.py` on loopback in front of a test server: answers some
/// requests with 500/503, drops some connections, holds some answers, cuts some off after half
/// their body (see the script).
final class S3FaultProxy {
    let port: Int
    private let process: Process

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tools/s3-fault-proxy.py").path

    convenience init(upstream: S3TestServer, pattern: String, slowSeconds: Double = 1.5) throws {
        try self.init(upstreamPort: upstream.port, pattern: pattern, slowSeconds: slowSeconds)
    }

    init(upstreamPort: Int, pattern: String, slowSeconds: Double = 1.5) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script, String(upstreamPort), pattern]
        var environment = ProcessInfo.processInfo.environment
        environment["TILESYNC_PROXY_SLOW"] = String(slowSeconds)
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
        self.process = process
    }

    /// SIGKILL: the test process may block SIGTERM, and python keeps a blocked mask.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }
}
