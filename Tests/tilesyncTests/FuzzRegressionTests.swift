import Foundation
import Testing

@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let corpusRoot = ToolRunner.packageRoot.appendingPathComponent("Tests/Fuzz").path
    static let replayBinary = URL(fileURLWithPath: ToolRunner.binary).deletingLastPathComponent().appendingPathComponent("tilesync-fuzz").path

    @Test("Every saved fuzz input replays without a crash or hang", arguments: ["mbtiles", "tar", "pmtiles", "names", "metadata"])
    func replay(target: String) throws {
        let folder = Self.corpusRoot + "/" + target
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
        #expect(!inputs.isEmpty)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.replayBinary)
        process.arguments = [target] + inputs
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            == "replayed \(inputs.count) inputs on \(target)\n")
    }
}
