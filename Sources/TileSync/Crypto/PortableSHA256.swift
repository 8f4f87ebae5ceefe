/// SHA-256 in plain Swift (FIPS 180-4), one stream at a time: what TileSync signs S3 requests
/// with where neither CryptoKit nor libcrypto is built in (a build without the `LibCrypto` trait).
struct PortableSHA256 {
    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var blocks = DigestBlocks()

    init() {}

    /// The 32-byte SHA-256 of `bytes`.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var sha = PortableSHA256()
        sha.update(bytes)
        return sha.finalize()
    }

    /// The 32-byte HMAC-SHA256 (RFC 2104) of `message` under `key`.
    static func hmac(key: [UInt8], message: UnsafeRawBufferPointer) -> [UInt8] {
        var block = key.count > 64 ? key.withUnsafeBytes { hash($0) } : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = PortableSHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        let innerDigest = inner.finalize()
        var outer = PortableSHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(innerDigest)
        return outer.finalize()
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var blocks = DigestBlocks()
        swap(&blocks, &self.blocks)
        blocks.feed(bytes) { compress($0) }
        self.blocks = blocks
    }

    /// The 32-byte digest; the value must not be updated afterwards.
    mutating func finalize() -> [UInt8] {
        let blocks = self.blocks
        blocks.finish(bigEndianLength: true) { compress($0) }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in state {
            withUnsafeBytes(of: word.bigEndian) { digest.append(contentsOf: $0) }
        }
        return digest
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        var schedule = [UInt32](repeating: 0, count: 64)
        for index in 0..<16 {
            schedule[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
        }
        for index in 16..<64 {
            let early = schedule[index - 15], late = schedule[index - 2]
            let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
            let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for round in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ sum1 &+ choice &+ Self.roundConstants[round] &+ schedule[round]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ sum0 &+ majority)
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() {
            state[index] = state[index] &+ value
        }
    }
}

private extension UInt32 {
    func rotatedRight(_ count: UInt32) -> UInt32 {
        self >> count | self << (32 - count)
    }
}
