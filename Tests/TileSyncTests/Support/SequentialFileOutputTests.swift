import Foundation
import Testing
@testable import TileSync

@Suite("Sequential file output (direct I/O, writing thread)")
struct SequentialFileOutputTests {
    /// Bytes whose value depends on their position, so a block written at the wrong offset shows.
    static func pattern(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 9) ^ seed) }
    }

    /// Appends pieces of odd sizes, zeros and in-place blocks across several 1 MiB buffers and
    /// compares the file with the same bytes built in memory.
    func writeMixed(direct: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out.bin")
        let output = try SequentialFileOutput(path: path, direct: direct)
        var expected: [UInt8] = []
        var seed = 0
        while expected.count < 3 * SequentialFileOutput.bufferSize + 12_345 {
            seed += 1
            let piece = Self.pattern(seed * 977 % 70_001, seed: seed)
            try piece.withUnsafeBytes { try output.append($0) }
            expected += piece
            try output.appendZeros(seed % 513)
            expected += [UInt8](repeating: 0, count: seed % 513)
            try output.appendInPlace(512) { block in
                for index in 0..<512 { block[index] = UInt8(truncatingIfNeeded: index &+ seed) }
            }
            expected += (0..<512).map { UInt8(truncatingIfNeeded: $0 &+ seed) }
        }
        #expect(output.count == expected.count)
        try output.close()
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.count == expected.count)
        #expect(written == Data(expected))
    }

    @Test("Direct I/O: every byte lands at its offset, the unaligned end included")
    func direct() throws {
        try writeMixed(direct: true)
    }

    @Test("Buffered writes give the same file")
    func buffered() throws {
        try writeMixed(direct: false)
    }

    @Test("An empty file and a file of exactly one buffer")
    func edges() throws {
        let directory = try TemporaryDirectory()
        let empty = try SequentialFileOutput(path: directory.file("empty"))
        try empty.close()
        #expect(FileBytes.size(directory.file("empty")) == 0)
        let one = try SequentialFileOutput(path: directory.file("one"))
        let bytes = Self.pattern(SequentialFileOutput.bufferSize, seed: 7)
        try bytes.withUnsafeBytes { try one.append($0) }
        try one.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("one"))) == Data(bytes))
    }

    @Test("Outputs dropped without close() (aborted writes) end their threads and close their files")
    func droppedWithoutClose() throws {
        let directory = try TemporaryDirectory()
        /// Descriptors of this process open on files of this test's folder (other tests running
        /// at the same time open files elsewhere).
        let folder = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path + "/"
        func openDescriptorsHere() -> Int? {
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
            return descriptors.filter { name in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name))?.hasPrefix(folder) == true
            }.count
        }
        let bytes = Self.pattern(3 * SequentialFileOutput.bufferSize / 2, seed: 3)
        for index in 0..<200 {
            let output = try SequentialFileOutput(path: directory.file("dropped-\(index)"))
            if index % 2 == 0 { try bytes.withUnsafeBytes { try output.append($0) } }
        }
        #expect(openDescriptorsHere() == 0)
    }

    @Test("A file that cannot be created names the path and errno")
    func cannotCreate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing/out.bin")
        #expect(throws: POSIXFileError.self) { try SequentialFileOutput(path: path) }
        do {
            _ = try SequentialFileOutput(path: path)
        } catch {
            #expect(error.path == path)
            #expect(error.code == ENOENT)
        }
    }
}
