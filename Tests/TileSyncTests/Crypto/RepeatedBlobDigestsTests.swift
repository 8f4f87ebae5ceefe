import Foundation
import Testing
@testable import TileSync

@Suite("MD5s of repeated blobs taken from earlier ones")
struct RepeatedBlobDigestsTests {
    @Test("A blob that came twice is not hashed again; every digest is the blob's MD5")
    func repeatsSkipHashing() {
        let a = MultiLaneMD5Tests.message(3_000, index: 1)
        let b = MultiLaneMD5Tests.message(3_000, index: 2)
        let c = MultiLaneMD5Tests.message(17, index: 3)
        let d = MultiLaneMD5Tests.message(5, index: 4)
        var digests = RepeatedBlobDigests()
        defer { digests.deallocate() }
        let batches: [[Data]] = [[a, b, c], [a, a, d], [a, a, b], [b, a, d, d], [Data(), Data(), Data()]]
        var hashed: [Int] = []
        for batch in batches {
            #expect(digests.digests(of: batch) == batch.map { ContentHash(of: $0) })
            hashed.append(digests.hashedCount)
        }
        // 1: all new. 2: `a` seen once before, hashed twice, then kept; `d` new. 3: both `a`
        // known; `b` hashed a second time and kept. 4: `b`, `a` known; `d` twice, then kept.
        // 5: the empty blob three times, hashed as any other.
        #expect(hashed == [3, 6, 7, 9, 12])
    }

    @Test("Blobs with the same fingerprint and different bytes get their own MD5")
    func sameFingerprintOtherBytes() {
        // 1,000 bytes: the fingerprint reads the words at 0, 248, 496, 744 and 992.
        let original = MultiLaneMD5Tests.message(1_000, index: 9)
        var changed = original
        changed[100] ^= 0xFF
        var changedLate = original
        changedLate[991] ^= 0x01
        #expect(RepeatedBlobDigests.fingerprint(of: original) == RepeatedBlobDigests.fingerprint(of: changed))
        #expect(RepeatedBlobDigests.fingerprint(of: original) == RepeatedBlobDigests.fingerprint(of: changedLate))
        var digests = RepeatedBlobDigests()
        defer { digests.deallocate() }
        _ = digests.digests(of: [original])
        _ = digests.digests(of: [original])
        #expect(digests.digests(of: [original, changed, changedLate, original])
            == [ContentHash(of: original), ContentHash(of: changed), ContentHash(of: changedLate), ContentHash(of: original)])
        #expect(digests.hashedCount == 4)
        #expect(ContentHash(of: original) != ContentHash(of: changed))
    }

    @Test("Fingerprints tell lengths and short blobs apart")
    func fingerprints() {
        let blobs = (0...16).map { MultiLaneMD5Tests.message($0, index: 0) } + [Data([1]), Data([2]), Data([1, 0])]
        #expect(Set(blobs.map { RepeatedBlobDigests.fingerprint(of: $0) }).count == blobs.count)
    }

    @Test("A blob above 64 KiB is hashed every time; slices of one buffer hash as themselves")
    func largeBlobsAndSlices() {
        let large = MultiLaneMD5Tests.message(RepeatedBlobDigests.maxKnownBlobBytes + 1, index: 5)
        var digests = RepeatedBlobDigests()
        defer { digests.deallocate() }
        for _ in 0..<3 { #expect(digests.digests(of: [large]) == [ContentHash(of: large)]) }
        #expect(digests.hashedCount == 3)
        let whole = MultiLaneMD5Tests.message(20_000, index: 6)
        let slices = [whole[0..<4_000], whole[4_000..<8_000], whole[0..<4_000], whole[8_000..<20_000]]
        for _ in 0..<3 { #expect(digests.digests(of: slices) == slices.map { ContentHash(of: $0) }) }
        // Round 1: 4 hashed, the first slice kept at its second sight; round 2: the other two
        // hashed and kept; round 3: none.
        #expect(digests.hashedCount == 3 + 4 + 2)
    }

    @Test("At most 2 MiB of blobs are kept")
    func byteBudget() {
        let size = 60_000
        let blobs = (0..<60).map { MultiLaneMD5Tests.message(size, index: 100 + $0) }
        var digests = RepeatedBlobDigests()
        defer { digests.deallocate() }
        _ = digests.digests(of: blobs)
        _ = digests.digests(of: blobs)
        let before = digests.hashedCount
        #expect(digests.digests(of: blobs) == blobs.map { ContentHash(of: $0) })
        let kept = blobs.count - (digests.hashedCount - before)
        #expect(kept <= RepeatedBlobDigests.knownBytes / size)
        #expect(kept >= 20)
    }
}
