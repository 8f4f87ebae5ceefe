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
        self.root = root
        (process, port) = try RcloneServerProcess.start(["http", "--config", "/dev/null", root.path])
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// The URL of a file in the folder.
    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }
}
