import Foundation
@testable import TileSync

/// Starts a server process that listens on `127.0.0.1:0`, so that the kernel picks a port no
/// other server holds, and reads the port from the start-up line it prints. Choosing a free port
/// first and passing it on would race with other servers starting beside it.
enum ListeningProcess {
    /// - Parameters:
    ///   - arguments: the command and its arguments, found on `PATH`.
    ///   - logsToStandardError: the start-up line comes on standard error (else standard output).
    ///   - port: the port in the output read so far, nil while it has not come.
    /// - Returns: the running process and its port; its log keeps being drained (a full pipe
    ///   would block it).
    /// - Throws: `HTTPError` when the process exits before it says its port.
    static func start(_ arguments: [String], logsToStandardError: Bool, port: (String) -> Int?) throws -> (process: Process, port: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let log = Pipe()
        if logsToStandardError {
            process.standardError = log
            process.standardOutput = FileHandle.nullDevice
        } else {
            process.standardOutput = log
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        let handle = log.fileHandleForReading
        var text = ""
        var found: Int?
        while found == nil, case let chunk = handle.availableData, !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
            found = port(text)
        }
        guard let found else {
            process.terminate()
            process.waitUntilExit()
            throw HTTPError(message: "\(arguments.prefix(3).joined(separator: " ")) did not start: \(text.suffix(300))")
        }
        Thread.detachNewThread { while let data = try? handle.read(upToCount: 65536), !data.isEmpty {} }
        return (process, found)
    }
}
