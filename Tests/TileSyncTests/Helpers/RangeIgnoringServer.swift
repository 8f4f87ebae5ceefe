import Foundation
@testable import TileSync

/// python's `http.server` on `127.0.0.1:0` over a temporary folder: it ignores `Range` and
/// answers every request for a file with all of it (200), as some servers do.
final class RangeIgnoringServer {
    let root: TemporaryDirectory
    let port: Int
    private let process: Process

    init(serving root: TemporaryDirectory) throws {
        self.root = root
        (process, port) = try ListeningProcess.start(["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path],
                                                     logsToStandardError: false) { text in
            guard let start = text.range(of: " port "), let end = text[start.upperBound...].firstIndex(of: " ") else { return nil }
            return Int(text[start.upperBound..<end])
        }
    }

    deinit {
        // SIGKILL: a SIGTERM the test process ignores stays ignored in the server it started.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }
}
