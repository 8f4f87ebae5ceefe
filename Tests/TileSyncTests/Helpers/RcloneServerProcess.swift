import Foundation
@testable import TileSync

/// Starts `rclone serve ...` on `127.0.0.1:0` (`ListeningProcess`), the port read from rclone's
/// start-up line ("... on [http://127.0.0.1:PORT/]").
enum RcloneServerProcess {
    /// - Parameter arguments: after `serve`, without `--addr`.
    /// - Returns: the running process and its port; its log keeps being drained.
    /// - Throws: `S3Error` when rclone is missing or exits before it listens.
    static func start(_ arguments: [String]) throws -> (process: Process, port: Int) {
        guard let executable = S3TestServer.executable else { throw S3Error(message: "rclone not installed") }
        do {
            return try ListeningProcess.start([executable, "serve"] + arguments + ["--addr", "127.0.0.1:0"], logsToStandardError: true) { text in
                guard let start = text.range(of: "[http://127.0.0.1:"), let end = text[start.upperBound...].firstIndex(of: "/") else { return nil }
                return Int(text[start.upperBound..<end])
            }
        } catch let error as HTTPError {
            throw S3Error(message: error.message)
        }
    }
}
