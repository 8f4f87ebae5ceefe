import Foundation
import Testing
@testable import TileSync

@Suite("Compressed tars are compressed in 1 MiB blocks on every core, and every reader reads them")
struct BlockCompressedOutputTests {
    /// Runs a system tool, returning its standard output, or nil when it is not installed.
    static func run(_ tool: String, _ arguments: [String]) throws -> Data? {
        guard let path = ["/usr/bin/", "/bin/"].map({ $0 + tool }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : Data("exit \(process.terminationStatus)".utf8)
    }

    @Test("5.5 MiB through gzip and zstd blocks decode to the same bytes, several members or frames", arguments: [BlockCompressedOutput.Compression.gzip, .zstd])
    func roundTrip(compression: BlockCompressedOutput.Compression) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out")
        var input: [UInt8] = []
        for index in 0..<(11 << 19) / 8 { input += withUnsafeBytes(of: UInt64(index % 100_003).bigEndian, Array.init) }
        let output = try BlockCompressedOutput(path: path, compression: compression)
        try input.prefix(1000).withUnsafeBytes { try output.append($0) }
        try output.appendZeros(12)
        try output.appendInPlace(4) { raw in raw.copyBytes(from: [1, 2, 3, 4]) }
        try input.dropFirst(1000).withUnsafeBytes { try output.append($0) }
        try output.close()
        let expected = Data(input.prefix(1000) + [UInt8](repeating: 0, count: 12) + [1, 2, 3, 4] + input.dropFirst(1000))
        #expect(output.count == expected.count)
        let compressed = try #require(FileManager.default.contents(atPath: path))
        #expect(compressed.count < expected.count / 2)
        switch compression {
        case .gzip:
            #expect(compressed.prefix(3) == Data([0x1F, 0x8B, 0x08]))
            if let decoded = try Self.run("gzip", ["-dc", path]) { #expect(decoded == expected) }
        case .zstd:
            #expect(Data(try ZstdCodec.decompress(compressed, limit: 1 << 26)) == expected)
        }
    }

    @Test("A tile store into .tar.gz and .tar.zst: read back equal, listed by GNU tar", arguments: ["a.tar.gz", "a.tar.zst"])
    func tar(name: String) throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 5).map { tile in
            Tile(coordinate: tile.coordinate, data: tile.data + Data(String(repeating: "\(tile.coordinate) ", count: 60).utf8))
        }
        let source = directory.file("a.mbtiles")
        try GeneratedStore.write(tiles, to: source)
        let path = directory.file(name)
        #expect(try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: path)).tilesWritten == 1365)
        #expect(try StoreContents.tiles(path) == StoreContents.tiles(source))
        let listing = try Self.run("tar", name.hasSuffix(".zst") ? ["--zstd", "-tf", path] : ["-tzf", path])
        if let listing, let text = String(data: listing, encoding: .utf8), !text.hasPrefix("exit") {
            #expect(text.split(separator: "\n").count == 1366)
            #expect(text.hasPrefix("metadata.json\n"))
        }
    }
}
