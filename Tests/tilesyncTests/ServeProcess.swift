import Foundation

/// `tilesync serve ... --port 0` started for a test: the port is read from its first line of
/// output, and its output is collected until it stops. A server not stopped is killed when the
/// test lets go of it (the threads that collect its output do not hold it).
final class ServeProcess: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let collected = Collected()
    private let drained = DispatchGroup()

    /// What the server printed, filled by the reading threads.
    private final class Collected: @unchecked Sendable {
        let lock = NSLock()
        var out = ""
        var err = ""
    }

    /// - Parameters:
    ///   - environment: replaces the process environment when given.
    ///   - launcher: a command that runs the server in its own place (`prlimit --nofile=N:N`).
    init(_ arguments: [String], in directory: String, environment: [String: String]? = nil, launcher: [String] = []) throws {
        let process = Process()
        let command = launcher + [ToolRunner.binary, "serve"] + arguments + ["--port", "0"]
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var first = ""
        while !first.contains("\n"), let chunk = try out.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty {
            first += String(decoding: chunk, as: UTF8.self)
        }
        guard let start = first.range(of: "http://127.0.0.1:"), let end = first[start.upperBound...].firstIndex(of: "/"),
              let port = Int(first[start.upperBound..<end]) else {
            process.terminate()
            process.waitUntilExit()
            let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve did not start: \(first) \(error)"])
        }
        self.port = port
        self.process = process
        collected.out = first
        for (handle, isOut) in [(out.fileHandleForReading, true), (err.fileHandleForReading, false)] {
            drained.enter()
            Thread.detachNewThread { [collected, drained] in
                while case let data = handle.availableData, !data.isEmpty {
                    let text = String(decoding: data, as: UTF8.self)
                    collected.lock.withLock { if isOut { collected.out += text } else { collected.err += text } }
                }
                drained.leave()
            }
        }
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// What it printed on stderr so far (the request log with `--verbose`).
    var stderr: String { collected.lock.withLock { collected.err } }

    /// Sends `signal` and waits for the exit: the status and everything printed on stdout.
    func stop(signal: Int32 = SIGINT) -> (status: Int32, stdout: String) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        drained.wait()
        return (process.terminationStatus, collected.lock.withLock { collected.out })
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
