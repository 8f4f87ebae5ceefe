import Foundation

/// A fast 128-bit fingerprint of a blob for telling blobs apart within one run where no hash is
/// stored or shown (counting distinct blobs): two chained lanes of 64-bit multiply-xor mixing
/// (the "mum" step of wyhash) over 16-byte words, much cheaper than a cryptographic hash. Not a
/// cryptographic hash: crafted blobs can collide, which at worst miscounts repeats; every hash
/// that is stored, shown or used to deduplicate is MD5 (`ContentHash`).
enum BlobFingerprint {
    private static let keys: (UInt64, UInt64, UInt64, UInt64) =
        (0xA076_1D64_78BD_642F, 0xE703_7ED1_A0B4_28DB, 0x8EBC_6AF0_9C88_C6E3, 0x5899_65CC_7537_4CC3)

    /// The fingerprint of `data`, as the two halves of a `ContentHash` (never compare it with an MD5).
    static func of(_ data: Data) -> ContentHash {
        data.withUnsafeBytes { of($0) }
    }

    static func of(_ bytes: UnsafeRawBufferPointer) -> ContentHash {
        let count = bytes.count
        var a = keys.0 ^ UInt64(truncatingIfNeeded: count)
        var b = keys.1 &+ UInt64(truncatingIfNeeded: count)
        var offset = 0
        while offset + 16 <= count {
            let x = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let y = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            (a, b) = (mix(x ^ keys.1 ^ a, y ^ keys.2), mix(y ^ keys.3 ^ b, x ^ keys.0 ^ a))
            offset += 16
        }
        if offset < count {
            var x: UInt64 = 0, y: UInt64 = 0
            for index in offset..<count {
                let shift = UInt64((index - offset) % 8) * 8
                if index - offset < 8 { x |= UInt64(bytes[index]) << shift } else { y |= UInt64(bytes[index]) << shift }
            }
            (a, b) = (mix(x ^ keys.1 ^ a, y ^ keys.2), mix(y ^ keys.3 ^ b, x ^ keys.0 ^ a))
        }
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
