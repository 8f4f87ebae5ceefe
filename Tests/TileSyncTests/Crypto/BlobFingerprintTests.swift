import Foundation
import Testing
@testable import TileSync

@Suite("Blob fingerprints")
struct BlobFingerprintTests {
    @Test("Equal bytes give equal fingerprints; any one-bit change, length or tail gives another")
    func separatesBlobs() {
        var generator = SystemRandomNumberGenerator()
        var seen: [ContentHash: Data] = [:]
        for length in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 80, 100, 127, 128, 129, 4_096, 8_191] {
            for _ in 0..<50 {
                let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                let fingerprint = BlobFingerprint.of(data)
                #expect(fingerprint == BlobFingerprint.of(Data(data)))
                if let earlier = seen[fingerprint] { #expect(earlier == data) }
                seen[fingerprint] = data
                for bit in stride(from: 0, to: length * 8, by: max(1, length * 8 / 16)) {
                    var flipped = data
                    flipped[bit / 8] ^= UInt8(1 << (bit % 8))
                    #expect(BlobFingerprint.of(flipped) != fingerprint, "length \(length), bit \(bit)")
                }
            }
        }
        #expect(BlobFingerprint.of(Data()) != BlobFingerprint.of(Data([0])))
        #expect(BlobFingerprint.of(Data([0])) != BlobFingerprint.of(Data([0, 0])))
        #expect(BlobFingerprint.of(Data(count: 16)) != BlobFingerprint.of(Data(count: 17)))
        #expect(BlobFingerprint.of(Data(count: 64)) != BlobFingerprint.of(Data(count: 80)))
    }

    @Test("Moving a 16-byte word elsewhere in the blob (to another lane or a later block of its own) gives another fingerprint")
    func wordOrderMatters() {
        let words = (0..<12).map { index in Data((0..<16).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ index &* 101) }) }
        let original = BlobFingerprint.of(words.reduce(Data(), +))
        for (a, b) in [(0, 1), (0, 4), (3, 7), (8, 11), (2, 10)] {
            var swapped = words
            swapped.swapAt(a, b)
            #expect(BlobFingerprint.of(swapped.reduce(Data(), +)) != original, "words \(a) and \(b)")
        }
    }

    @Test("No collisions among a million distinct small blobs")
    func noCollisions() {
        var fingerprints = Set<ContentHash>()
        for value in 0..<1_000_000 {
            var word = UInt32(value).littleEndian
            let data = withUnsafeBytes(of: &word) { Data($0) }
            fingerprints.insert(BlobFingerprint.of(data))
        }
        #expect(fingerprints.count == 1_000_000)
    }
}
