import Foundation
import Testing
@testable import TileSync

@Suite("Scratch structures: external sorts past their memory budget and in several merge passes, a paged array on disk")
struct ScratchStructuresTests {
    private func drain<Record>(_ records: SortedRecords<Record>) throws -> [Record] {
        var out: [Record] = []
        while let record = try records.next() { out.append(record) }
        return out
    }

    @Test("Sorted in memory, in runs on disk, and in more runs than one merge takes (several passes)", arguments: [1 << 20, 4096, 64])
    func externalSort(memoryBudget: Int) throws {
        let directory = try TemporaryDirectory()
        let sorter = ExternalSorter<UInt64>(ascendingIn: directory.path, purpose: "test", memoryBudget: memoryBudget)
        var generator = UInt64(0x9E37_79B9_7F4A_7C15)
        var values: [UInt64] = []
        for _ in 0..<20_000 {
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(generator >> 40)
            try sorter.append(generator >> 40)
        }
        #expect(sorter.count == 20_000)
        #expect(try drain(sorter.sorted()) == values.sorted())
    }

    @Test("A comparison closure sorts records by it: pairs by their second field, descending")
    func customOrder() throws {
        let directory = try TemporaryDirectory()
        let sorter = ExternalSorter<(UInt32, UInt32)>(folder: directory.path, purpose: "pairs", memoryBudget: 256,
                                                       by: { $0.1 > $1.1 }, sortInMemory: nil)
        for index in 0..<1000 { try sorter.append((UInt32(index), UInt32(index * 37 % 1000))) }
        let sorted = try drain(sorter.sorted())
        #expect(sorted.map(\.1) == (0..<1000).map { UInt32(999 - $0) })
        #expect(sorted.first.map { Int($0.0) } == (0..<1000).first { $0 * 37 % 1000 == 999 })
    }

    @Test("A scratch array: unset values are nil, set values read back across more pages than it caches")
    func scratchArray() throws {
        let directory = try TemporaryDirectory()
        let array = ScratchArray(folder: directory.path)
        #expect(try array.value(at: 5) == nil)
        let indexes: [Int] = [0, 1, 1023, 1024, 5_000_000, 2_000_000, 2_097_159]
        for (position, index) in indexes.enumerated() { try array.set(UInt64(position) * 1_000_003, at: index) }
        for (position, index) in indexes.enumerated().reversed() { #expect(try array.value(at: index) == UInt64(position) * 1_000_003) }
        #expect(try array.value(at: 2) == nil && array.value(at: 4_999_999) == nil)
        try array.set(0, at: 1)
        #expect(try array.value(at: 1) == 0)
    }
}
