#if canImport(CTileSyncArchive)
import Foundation
import Testing
@testable import TileSync

@Suite("Native tar writer")
struct PlainTarFileWriterTests {
    static let longFolder = String(repeating: "d", count: 120) + "/" + String(repeating: "e", count: 60)
    static let longName = String(repeating: "n", count: 140) + ".png"

    /// Writes an archive with a short name, a name ustar splits into prefix and name, one only pax
    /// holds, and hard links with short and long targets.
    func writeSample(_ path: String) throws -> [String: Data] {
        let writer = try PlainTarFileWriter(path: path)
        let contents: [String: Data] = [
            "0/0/0.png": Data("first".utf8),
            Self.longFolder + "/1.png": Data(repeating: 7, count: 1_500),
            Self.longName: Data(),
        ]
        try writer.writeFile(path: "0/0/0.png", data: contents["0/0/0.png"] ?? Data(), modificationTime: 1_700_000_000)
        try writer.writeFile(path: Self.longFolder + "/1.png", data: contents[Self.longFolder + "/1.png"] ?? Data(), modificationTime: 1_700_000_000)
        try writer.writeFile(path: Self.longName, data: Data(), modificationTime: 1_700_000_000)
        try writer.writeHardLink(path: "1/0/0.png", target: "0/0/0.png", modificationTime: 1_700_000_000)
        try writer.writeHardLink(path: "1/0/1.png", target: Self.longFolder + "/1.png", modificationTime: 1_700_000_000)
        try writer.close()
        return contents
    }

    @Test("Entries, sizes, link targets and long names read back through libarchive")
    func readsBackThroughLibarchive() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.tar")
        let contents = try writeSample(path)
        #expect((FileBytes.size(path) ?? 0) % 10_240 == 0)
        let archive = try ArchiveFileReader(path: path)
        var seen: [String] = []
        while let header = try archive.nextEntry() {
            seen.append(header.path)
            switch header.kind {
            case .regularFile:
                #expect(header.modificationTime == 1_700_000_000)
                let data = try archive.readData(expectedSize: header.size, limit: 1 << 20)
                #expect(data == contents[header.path], "\(header.path)")
            case .hardLink(let target):
                #expect(target == (header.path == "1/0/0.png" ? "0/0/0.png" : Self.longFolder + "/1.png"))
            default:
                Issue.record("unexpected entry kind for \(header.path)")
            }
        }
        #expect(seen == ["0/0/0.png", Self.longFolder + "/1.png", Self.longName, "1/0/0.png", "1/0/1.png"])
    }

    @Test("GNU tar lists the same entries and extracts the links")
    func gnuTarReadsIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.tar")
        let contents = try writeSample(path)
        try FileManager.default.createDirectory(atPath: directory.file("x"), withIntermediateDirectories: true)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-xf", path, "-C", directory.file("x")]
        try tar.run()
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        #expect(FileManager.default.contents(atPath: directory.file("x/" + Self.longFolder + "/1.png")) == contents[Self.longFolder + "/1.png"])
        #expect(FileManager.default.contents(atPath: directory.file("x/1/0/1.png")) == contents[Self.longFolder + "/1.png"])
        #expect(FileManager.default.contents(atPath: directory.file("x/1/0/0.png")) == Data("first".utf8))
        #expect(FileManager.default.contents(atPath: directory.file("x/" + Self.longName)) == Data())
    }

    @Test("ustar name splitting and pax record lengths")
    func fieldEncoding() {
        #expect(PlainTarFileWriter.splitUSTarName(Array("a/b.png".utf8)).map { Array($0.name) } == Array("a/b.png".utf8))
        let split = PlainTarFileWriter.splitUSTarName(Array((Self.longFolder + "/1.png").utf8))
        #expect(split.map { String(decoding: $0.prefix, as: UTF8.self) } == String(repeating: "d", count: 120))
        #expect(split.map { String(decoding: $0.name, as: UTF8.self) } == String(repeating: "e", count: 60) + "/1.png")
        #expect(PlainTarFileWriter.splitUSTarName(Array(Self.longName.utf8)) == nil)
        #expect(String(decoding: PlainTarFileWriter.paxRecord(key: "path", value: Array("abc".utf8)), as: UTF8.self) == "12 path=abc\n")
        let value = [UInt8](repeating: 0x61, count: 93)
        #expect(String(decoding: PlainTarFileWriter.paxRecord(key: "path", value: value), as: UTF8.self).hasPrefix("103 path="))
        #expect(PlainTarFileWriter.paxRecord(key: "path", value: value).count == 103)
    }

    @Test("A write error names the archive and the system error")
    func writeErrorNamesFile() throws {
        #expect(throws: ArchiveError.self) { try PlainTarFileWriter(path: "/nonexistent-folder/a.tar") }
        do {
            _ = try PlainTarFileWriter(path: "/nonexistent-folder/a.tar")
        } catch {
            #expect(error.description == "cannot create: No such file or directory")
            #expect(error.path == "/nonexistent-folder/a.tar")
            #expect(error.code == ENOENT)
        }
    }
}
#endif
