import Foundation
import Testing
@testable import TileSync

@Suite("MappedFileGuard: reads past the end of a mapped file truncated in place")
struct MappedFileGuardTests {
    @Test("A read of a page the file lost reads zeros and is counted instead of killing the process; pages still in the file keep their bytes",
          .enabled(if: MappedFileGuard.install(), "no SIGBUS guard on this system"))
    func truncatedMapping() throws {
        let path = NSTemporaryDirectory() + "tilesync-mapped-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = Data((0..<(4 * pageSize)).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) })
        #expect(FileManager.default.createFile(atPath: path, contents: bytes))
        let descriptor = open(path, O_RDWR)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let mapped = try #require(mmap(nil, bytes.count, PROT_READ, MAP_SHARED, descriptor, 0))
        #expect(mapped != MAP_FAILED)
        defer { munmap(mapped, bytes.count) }
        let view = mapped.assumingMemoryBound(to: UInt8.self)
        #expect(view[3 * pageSize + 7] == bytes[3 * pageSize + 7])
        #expect(ftruncate(descriptor, off_t(pageSize)) == 0)
        let before = MappedFileGuard.guardedFaults
        let lost = (view[3 * pageSize + 7], view[2 * pageSize])
        #expect(lost == (0, 0))
        #expect(MappedFileGuard.guardedFaults == before + 2)
        #expect(view[pageSize - 1] == bytes[pageSize - 1])
    }
}
