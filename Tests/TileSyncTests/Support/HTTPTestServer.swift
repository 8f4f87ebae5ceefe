import Foundation
@testable import TileSync

/// `rclone serve http` over a temporary folder on 127.0.0.1 (it answers range requests), for
/// archives read over plain HTTP. Files must be in the folder before the server starts (rclone
/// caches the listing).
final class HTTPTestServer {
    let root: TemporaryDirectory
    let port: Int
    private let process: Process

    /// Starts a server over `root`, whose files are in place.
    init(serving root: TemporaryDirectory) throws {
        guard let executable = S3TestServer.executable else { throw S3Error(message: "rclone not installed") }
        self.root = root
        for _ in 0..<5 {
            let port = S3TestServer.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["serve", "http", "--addr", "127.0.0.1:\(port)", "--config", "/dev/null", root.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if S3TestServer.waitForListening(port: port, process: process) {
                self.port = port
                self.process = process
                return
            }
            process.terminate()
            process.waitUntilExit()
        }
        throw S3Error(message: "rclone serve http did not start")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// The URL of a file in the folder.
    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }
}
