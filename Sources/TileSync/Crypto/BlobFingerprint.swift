import Foundation

/// A fast 128-bit fingerprint of a blob for telling blobs apart within one run where no hash is
/// stored or shown (counting distinct blobs, remembering MD5s by content): four independent
/// lanes of 64-bit multiply-xor mixing (the "mum" step of wyhash), each over every fourth
/// 16-byte word, so that the processor runs the lanes' multiplications side by side; folded into
/// 128 bits at the end. Much cheaper than a cryptographic hash. Not a cryptographic hash: crafted
/// blobs can collide, which at worst miscounts repeats; every hash that is stored, shown or used
/// to deduplicate is MD5 (`ContentHash`).
enum BlobFingerprint {
    private static let keys: (UInt64, UInt64, UInt64, UInt64) =
        (0xA076_1D64_78BD_642F, 0xE703_7ED1_A0B4_28DB, 0x8EBC_6AF0_9C88_C6E3, 0x5899_65CC_7537_4CC3)

    /// The fingerprint of `data`, as the two halves of a `ContentHash` (never compare it with an MD5).
    static func of(_ data: Data) -> ContentHash {
        data.withUnsafeBytes { of($0) }
    }

    static func of(_ bytes: UnsafeRawBufferPointer) -> ContentHash {
        let count = bytes.count
        let length = UInt64(truncatingIfNeeded: count)
        var lanes = (keys.0 ^ length, keys.1 &+ length, keys.2 ^ length, keys.3 &+ length)
        func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var offset = 0
        while offset + 64 <= count {
            lanes.0 = mix(word(offset) ^ keys.1 ^ lanes.0, word(offset + 8) ^ keys.2)
            lanes.1 = mix(word(offset + 16) ^ keys.3 ^ lanes.1, word(offset + 24) ^ keys.0)
            lanes.2 = mix(word(offset + 32) ^ keys.2 ^ lanes.2, word(offset + 40) ^ keys.3)
            lanes.3 = mix(word(offset + 48) ^ keys.0 ^ lanes.3, word(offset + 56) ^ keys.1)
            offset += 64
        }
        while offset + 16 <= count {
            lanes.0 = mix(word(offset) ^ keys.1 ^ lanes.0, word(offset + 8) ^ keys.2)
            lanes = (lanes.1, lanes.2, lanes.3, lanes.0)
            offset += 16
        }
        if offset < count {
            var x: UInt64 = 0, y: UInt64 = 0
            for index in offset..<count {
                let shift = UInt64((index - offset) % 8) * 8
                if index - offset < 8 { x |= UInt64(bytes[index]) << shift } else { y |= UInt64(bytes[index]) << shift }
            }
            lanes.0 = mix(x ^ keys.1 ^ lanes.0, y ^ keys.2)
        }
        let a = mix(lanes.0 ^ keys.2, lanes.1 ^ keys.3)
        let b = mix(lanes.2 ^ keys.0, lanes.3 ^ keys.1)
        let high = mix(a ^ keys.2, b ^ keys.3)
        let low = mix(b ^ keys.0, high ^ keys.1)
        return ContentHash(high: mix(high, keys.3 ^ low), low: low)
    }

    /// The 128-bit product of `a` and `b`, folded to 64 bits.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
