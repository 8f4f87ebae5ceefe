import Foundation
import Testing
@testable import TileSync

@Suite("Blob fingerprints")
struct BlobFingerprintTests {
    @Test("Equal bytes give equal fingerprints; any one-bit change, length or tail gives another")
    func separatesBlobs() {
        var generator = SystemRandomNumberGenerator()
        var seen: [ContentHash: Data] = [:]
        for length in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 100, 4_096] {
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
