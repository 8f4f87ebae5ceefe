import Foundation
@testable import TileSync

/// Starts `rclone serve ...` on `127.0.0.1:0`, so that the kernel picks a port no other server
/// holds, and reads the port from rclone's start-up line ("... on [http://127.0.0.1:PORT/]").
/// Choosing a free port first and passing it on would race with other servers starting beside it.
enum RcloneServerProcess {
    /// - Parameter arguments: after `serve`, without `--addr`.
    /// - Returns: the running process and its port; its log keeps being drained.
    /// - Throws: `S3Error` when rclone is missing or exits before it listens.
    static func start(_ arguments: [String]) throws -> (process: Process, port: Int) {
        guard let executable = S3TestServer.executable else { throw S3Error(message: "rclone not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve"] + arguments + ["--addr", "127.0.0.1:0"]
        let log = Pipe()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let handle = log.fileHandleForReading
        var text = ""
        var port: Int?
        while port == nil, case let chunk = handle.availableData, !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
            if let start = text.range(of: "[http://127.0.0.1:"), let end = text[start.upperBound...].firstIndex(of: "/") {
                port = Int(text[start.upperBound..<end])
            }
        }
        guard let port else {
            process.terminate()
            process.waitUntilExit()
            throw S3Error(message: "rclone serve did not start: \(text.suffix(300))")
        }
        // rclone would block on a full pipe.
        Thread.detachNewThread { while let data = try? handle.read(upToCount: 65536), !data.isEmpty {} }
        return (process, port)
    }
}
