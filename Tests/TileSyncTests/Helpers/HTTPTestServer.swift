import Foundation
@testable import TileSync

/// A web server on 127.0.0.1 over a temporary folder, for archives read over plain HTTP: `rclone
/// serve http` (it answers range requests), or with `ignoringRanges` python's `http.server`,
/// which answers every request for a file with all of it (200), as some servers do. Files must
/// be in the folder before the server starts (rclone caches the listing).
final class HTTPTestServer {
    let root: TemporaryDirectory
    let port: Int
    private let process: Process

    /// Starts a server over `root`, whose files are in place.
    init(serving root: TemporaryDirectory, ignoringRanges: Bool = false) throws {
        self.root = root
        if ignoringRanges {
            (process, port) = try ListeningProcess.start(["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path],
                                                         logsToStandardError: false) { text in
                guard let start = text.range(of: " port "), let end = text[start.upperBound...].firstIndex(of: " ") else { return nil }
                return Int(text[start.upperBound..<end])
            }
        } else {
            (process, port) = try RcloneServerProcess.start(["http", "--config", "/dev/null", root.path])
        }
    }

    deinit {
        // SIGKILL: a SIGTERM the test process ignores stays ignored in the server it started.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The URL of a file in the folder.
    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }
}
