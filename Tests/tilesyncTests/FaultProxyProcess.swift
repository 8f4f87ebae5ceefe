import Foundation

/// Tests/Tools/s3-fault-proxy.py in front of a local server: a cycle of 429s (Retry-After),
/// 5xx answers, dropped connections and slow answers between good ones.
final class FaultProxyProcess {
    let port: Int
    private let process: Process

    init(upstreamPort: Int, pattern: String) throws {
        let script = ToolRunner.packageRoot.appendingPathComponent("Tests/Tools/s3-fault-proxy.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, String(upstreamPort), pattern]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let first = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(first.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the fault proxy did not start: \(first)"])
        }
        self.port = port
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
