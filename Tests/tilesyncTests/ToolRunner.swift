import Foundation

/// Runs the built `tilesync` binary and captures its output.
enum ToolRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `TILESYNC_BINARY`, else the `tilesync` beside the test bundle, else `.build/debug/tilesync`.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["TILESYNC_BINARY"], !path.isEmpty { return path }
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tilesync").path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tilesync").path,
            packageRoot.appendingPathComponent(".build/debug/tilesync").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[candidates.count - 1]
    }()

    /// - Parameter environment: replaces the process environment when given.
    static func run(_ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
