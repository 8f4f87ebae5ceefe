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

    /// - Parameters:
    ///   - environment: replaces the process environment when given.
    ///   - executable: the program to run; the built `tilesync` unless given.
    static func run(_ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
                    executable: String = binary) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        // stderr goes to a file, not a second pipe: a child that fills a pipe's buffer on
        // stderr while stdout is being read to its end would block both sides.
        let errorsURL = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("tilesync-stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorsURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorsURL.path])
        }
        defer { try? FileManager.default.removeItem(at: errorsURL) }
        let errors = try FileHandle(forWritingTo: errorsURL)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors
        do {
            try process.run()
        } catch {
            try? errors.close()
            throw error
        }
        try? errors.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = (try? Data(contentsOf: errorsURL)) ?? Data()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
