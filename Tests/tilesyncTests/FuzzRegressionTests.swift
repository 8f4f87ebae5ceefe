import Foundation
import Testing

@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let corpusRoot = ToolRunner.packageRoot.appendingPathComponent("Tests/Fuzz").path
    static let replayBinary = URL(fileURLWithPath: ToolRunner.binary).deletingLastPathComponent().appendingPathComponent("tilesync-fuzz").path

    @Test("Every saved fuzz input replays without a crash or hang", arguments: ["mbtiles", "tar", "pmtiles", "names", "metadata", "json", "mvt", "tilelist", "gpkg", "patch", "answers", "region"])
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

    @Test("Every saved PMTiles input: info, verify and convert answer (exit 0 or 1) within 10 s and write under 100 MB")
    func pmtilesThroughTheTool() throws {
        let folder = Self.corpusRoot + "/pmtiles"
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(inputs.count >= 20)
        for input in inputs {
            let work = NSTemporaryDirectory() + "tilesync-fuzz-replay-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            for arguments in [["info", folder + "/" + input], ["verify", folder + "/" + input], ["convert", folder + "/" + input, "out.mbtiles"]] {
                let started = Date()
                let result = try ToolRunner.run(arguments, in: work)
                let seconds = Date().timeIntervalSince(started)
                #expect(result.status == 0 || result.status == 1, "\(arguments): exit \(result.status)")
                #expect(seconds < 10, "\(arguments): \(seconds) s")
                let written = try FileManager.default.contentsOfDirectory(atPath: work).reduce(0) { sum, name in
                    sum + ((try? FileManager.default.attributesOfItem(atPath: work + "/" + name)[.size] as? Int) ?? 0)
                }
                #expect(written < 100 << 20, "\(arguments): \(written) bytes")
            }
        }
    }
}
