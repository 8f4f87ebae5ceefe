import Foundation
import Testing
@testable import TileSync

@Suite("ContentHash.Memo: MD5s remembered by content")
struct ContentHashMemoTests {
    @Test("Every answer is the blob's MD5: first seen, seen again, after another blob took its slot, from many threads")
    func answersAreMD5s() async {
        let memo = ContentHash.Memo(capacity: 1)
        let blobs = (0..<500).map { index in Data((0..<(index % 97 + 1) * 37).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }) }
        for _ in 0..<3 {
            for blob in blobs {
                #expect(memo.md5(of: blob) == ContentHash(of: blob))
            }
        }
        #expect(memo.md5(of: Data()) == ContentHash(of: Data()))
        #expect(memo.md5(of: Data("abc".utf8)).hex == "900150983CD24FB0D6963F7D28E17F72")
        let shared = ContentHash.Memo(capacity: 256)
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<2000 {
                        let blob = blobs[(round * 7 + worker) % blobs.count]
                        if shared.md5(of: blob) != ContentHash(of: blob) { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("Blobs of the same bytes but different lengths are told apart (zero padding)")
    func lengthsMatter() {
        let memo = ContentHash.Memo()
        let short = Data([1, 2, 3]), padded = Data([1, 2, 3, 0])
        #expect(memo.md5(of: short) == ContentHash(of: short))
        #expect(memo.md5(of: padded) == ContentHash(of: padded))
        #expect(memo.md5(of: short) != memo.md5(of: padded))
    }
}
