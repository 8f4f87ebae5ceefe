import Foundation
import Testing
@testable import TileSync

@Suite("PortableSHA256: the SHA-256 and HMAC of builds without CryptoKit or libcrypto")
struct PortableSHA256Tests {
    private func hex(_ text: String) -> String {
        text.utf8.withContiguousStorageIfAvailable { SHA256Digest.hex(PortableSHA256.hash(UnsafeRawBufferPointer($0))) } ?? ""
    }

    @Test("FIPS 180-4 example digests, the empty message and a million a's")
    func knownDigests() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var million = PortableSHA256()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { million.update(thousand) }
        #expect(SHA256Digest.hex(million.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("RFC 4231 HMAC-SHA256 cases 1, 2 and 6 (a key longer than a block)")
    func knownHMACs() {
        func hmac(_ key: [UInt8], _ message: String) -> String {
            SHA256Digest.hex(Array(message.utf8).withUnsafeBytes { PortableSHA256.hmac(key: key, message: $0) })
        }
        #expect(hmac([UInt8](repeating: 0x0b, count: 20), "Hi There")
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(hmac(Array("Jefe".utf8), "what do ya want for nothing?")
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(hmac([UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First")
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("Every length from 0 to 300 bytes, fed in two pieces, matches the platform's SHA-256 and HMAC")
    func matchesPlatform() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let split = Int.random(in: 0...length, using: &generator)
            var pieces = PortableSHA256()
            message.withUnsafeBytes { bytes in
                pieces.update(UnsafeRawBufferPointer(rebasing: bytes[0..<split]))
                pieces.update(UnsafeRawBufferPointer(rebasing: bytes[split...]))
            }
            #expect(pieces.finalize() == SHA256Digest.hash(message), "length \(length)")
            let key = Array(message.prefix(length % 97))
            #expect(message.withUnsafeBytes { PortableSHA256.hmac(key: key, message: $0) }
                == SHA256Digest.hmac(key: key, message: message), "length \(length)")
        }
    }
}
