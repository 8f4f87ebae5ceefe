import Foundation
import Testing
@testable import TileSync

@Suite("FixedSlotMemo: a fixed table of four-way sets")
struct FixedSlotMemoTests {
    /// A key whose hash is its set number alone, so that keys can be made to share a set.
    struct SetKey: Hashable {
        let set: Int
        let id: Int
        func hash(into hasher: inout Hasher) { hasher.combine(set) }
        static func == (a: SetKey, b: SetKey) -> Bool { a.set == b.set && a.id == b.id }
    }

    @Test("Four keys of one set are all kept; a fifth drops the oldest; remembering a key again makes it the newest")
    func fourWays() {
        let memo = FixedSlotMemo<SetKey, String>(capacity: 64)
        let keys = (0..<5).map { SetKey(set: 7, id: $0) }
        for key in keys.prefix(4) { memo.remember("v\(key.id)", for: key) }
        #expect(keys.prefix(4).map { memo.value(for: $0) } == ["v0", "v1", "v2", "v3"])
        memo.remember("v0 again", for: keys[0])
        memo.remember("v4", for: keys[4])
        #expect(keys.map { memo.value(for: $0) } == ["v0 again", nil, "v2", "v3", "v4"])
        #expect(memo.value(for: SetKey(set: 8, id: 0)) == nil)
    }

    @Test("20,000 keys in 65,536 slots: at least 98.5% are found again (a one-slot table keeps about 86%)")
    func fewCollisions() {
        let memo = FixedSlotMemo<Int, Int>(capacity: 1 << 16)
        for key in 0..<20_000 { memo.remember(key * 3, for: key) }
        let found = (0..<20_000).filter { memo.value(for: $0) == $0 * 3 }.count
        #expect(found >= 19_700, "\(found) found")
    }

    @Test("Values stay right under many threads remembering and asking at once")
    func threads() async {
        let memo = FixedSlotMemo<Int, Int>(capacity: 256)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<5_000 {
                        let key = (round * 13 + worker) % 1_000
                        if let value = memo.value(for: key), value != key &* 7 { wrong += 1 }
                        memo.remember(key &* 7, for: key)
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
