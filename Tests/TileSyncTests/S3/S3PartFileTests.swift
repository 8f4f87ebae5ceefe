import Foundation
import Testing
@testable import TileSync

@Suite("Multipart upload parts: copied from the file with their MD5 and SHA-256, streamed from disk")
struct S3PartFileTests {
    @Test("SHA256Hasher gives the FIPS 180-2 digests, a buffer at a time as in one piece")
    func sha256() throws {
        let abc = SHA256Hasher()
        Data("abc".utf8).withUnsafeBytes { abc.update($0) }
        #expect(SHA256Digest.hex(try abc.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let message = Data((0..<3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let pieces = SHA256Hasher()
        for start in stride(from: 0, to: message.count, by: 65_537) {
            message[start..<min(start + 65_537, message.count)].withUnsafeBytes { pieces.update($0) }
        }
        #expect(try pieces.finalize() == SHA256Digest.hash(message))
    }

    @Test("A part holds exactly its range of the file, hashed, in a scratch file beside it that remove() deletes")
    func part() throws {
        let folder = try TemporaryDirectory()
        let bytes = Data((0..<3_500_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        try bytes.write(to: URL(fileURLWithPath: folder.file("archive.pmtiles")))
        let file = try RandomAccessFile(path: folder.file("archive.pmtiles"))
        let part = try S3PartFile(copying: file, offset: 1_000_003, count: 2_400_000, part: 2)
        let expected = bytes[1_000_003..<3_400_003]
        #expect(try Data(contentsOf: part.url) == expected)
        #expect(part.url.deletingLastPathComponent().path == URL(fileURLWithPath: folder.path).path)
        #expect(part.md5 == ContentHash(of: Data(expected)))
        #expect(part.sha256 == SHA256Digest.hex(SHA256Digest.hash(Data(expected))))
        part.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["archive.pmtiles"])
    }

    @Test("A range past the end of the file fails naming it, and leaves no scratch file")
    func shortFile() throws {
        let folder = try TemporaryDirectory()
        try Data(repeating: 7, count: 1_000).write(to: URL(fileURLWithPath: folder.file("short.pmtiles")))
        let file = try RandomAccessFile(path: folder.file("short.pmtiles"))
        let error = #expect(throws: POSIXFileError.self) { _ = try S3PartFile(copying: file, offset: 500, count: 1_000, part: 1) }
        #expect(error?.path == folder.file("short.pmtiles"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["short.pmtiles"])
    }
}
