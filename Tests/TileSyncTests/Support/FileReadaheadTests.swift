#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import TileSync

@Suite("File readahead (page cache, Linux)")
struct FileReadaheadTests {
    /// Writes `mebibytes` MiB, syncs them, and asks the kernel to drop them from the page cache.
    static func writeDropped(_ path: String, mebibytes: Int) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x5a, count: 1 << 20)
        for _ in 0..<mebibytes {
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            try #require(written == chunk.count)
        }
        try #require(fsync(descriptor) == 0)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    }

    /// The share of the file's pages in the page cache (mincore on a mapping that touches none).
    static func residentShare(_ path: String) throws -> Double {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        let size = Int(status.st_size)
        let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0)
        try #require(mapping != MAP_FAILED)
        defer { munmap(mapping, size) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = (size + pageSize - 1) / pageSize
        var vector = [UInt8](repeating: 0, count: pages)
        try #require(mincore(mapping, size, &vector) == 0)
        return Double(vector.filter { $0 & 1 != 0 }.count) / Double(pages)
    }

    /// The type of the file system that holds `path` (the longest mount point of /proc/mounts
    /// above it).
    static func fileSystemType(of path: String) throws -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let mounts = try String(contentsOfFile: "/proc/mounts", encoding: .utf8)
        var best = (point: "", type: "")
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1])
            let inside = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
            if inside, point.count > best.point.count { best = (point, String(fields[2])) }
        }
        return best.type
    }

    /// A fresh folder whose files the kernel can drop from its page cache: the temporary
    /// directory, or the package's `.build` folder when that is tmpfs (which cannot drop pages).
    static func droppableDirectory() throws -> TemporaryDirectory {
        let temporary = try TemporaryDirectory()
        guard try fileSystemType(of: temporary.path) == "tmpfs" else { return temporary }
        let build = Fixtures.packageRoot.appendingPathComponent(".build").path
        try FileManager.default.createDirectory(atPath: build, withIntermediateDirectories: true)
        let directory = try TemporaryDirectory(in: build)
        try #require(try fileSystemType(of: directory.path) != "tmpfs", "no folder outside tmpfs to test the page cache in")
        return directory
    }

    @Test("A file below 64 MiB, or one that is missing, is left to the kernel")
    func declines() throws {
        let directory = try TemporaryDirectory()
        let small = directory.file("small.bin")
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: small))
        #expect(FileReadahead(path: small) == nil)
        #expect(FileReadahead(path: directory.file("missing.bin")) == nil)
    }

    @Test("A file dropped from the page cache is read back into it, every page")
    func bringsTheFileIn() throws {
        let directory = try Self.droppableDirectory()
        let path = directory.file("large.bin")
        try Self.writeDropped(path, mebibytes: 80)
        let before = try Self.residentShare(path)
        #expect(before < 0.5)
        let readahead = try #require(FileReadahead(path: path))
        defer { readahead.stop() }
        var share = before
        let deadline = Date().addingTimeInterval(30)
        while share < 1, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            share = try Self.residentShare(path)
        }
        #expect(share == 1)
    }

    @Test("Dropping the readahead stops it: a file dropped from the cache stays mostly out")
    func stopsWhenDropped() throws {
        let directory = try Self.droppableDirectory()
        let path = directory.file("large.bin")
        try Self.writeDropped(path, mebibytes: 96)
        #expect(try Self.residentShare(path) < 0.1)
        var readahead = FileReadahead(path: path)
        #expect(readahead != nil)
        readahead = nil
        Thread.sleep(forTimeInterval: 1)
        // At most the two steps asked for before the thread saw the flag (16 of 96 MiB).
        #expect(try Self.residentShare(path) < 0.5)
    }

    @Test("One call asks for the device's readahead size, 128 KiB to 8 MiB; 128 KiB for an unknown device")
    func callSize() throws {
        let directory = try TemporaryDirectory()
        var status = stat()
        try #require(stat(directory.path, &status) == 0)
        let size = FileReadahead.readaheadBytes(device: UInt64(status.st_dev))
        #expect(size >= 128 << 10 && size <= FileReadahead.stepBytes && size % 1024 == 0)
        #expect(FileReadahead.readaheadBytes(device: 0xfff_ffff_ffff) == 128 << 10)
    }

    @Test("The available memory is read from /proc/meminfo")
    func availableMemory() throws {
        let bytes = try #require(FileReadahead.availableMemoryBytes())
        #expect(bytes > 64 << 20)
        #expect(bytes % 1024 == 0)
    }
}
#endif
