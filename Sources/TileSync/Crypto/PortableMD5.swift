import Foundation

/// MD5 in plain Swift (RFC 1321), one stream at a time: what TileSync hashes with where
/// libcrypto refuses MD5 (a FIPS provider) or fails. Slower than libcrypto, never wrong.
struct PortableMD5 {
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]
    /// `floor(abs(sin(i + 1)) * 2^32)`, the RFC's table T.
    private static let sines: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    private var a: UInt32 = 0x6745_2301, b: UInt32 = 0xEFCD_AB89, c: UInt32 = 0x98BA_DCFE, d: UInt32 = 0x1032_5476
    private var blocks = DigestBlocks()

    init() {}

    /// The MD5 of one buffer.
    static func hash(_ data: Data) -> ContentHash {
        var md5 = PortableMD5()
        data.withUnsafeBytes { md5.update($0) }
        return md5.finalize()
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var blocks = DigestBlocks()
        swap(&blocks, &self.blocks)
        blocks.feed(bytes) { compress($0) }
        self.blocks = blocks
    }

    /// The digest; the value must not be updated afterwards.
    mutating func finalize() -> ContentHash {
        let blocks = self.blocks
        blocks.finish(bigEndianLength: false) { compress($0) }
        let words = [a, b, c, d].map(\.byteSwapped)
        return ContentHash(high: UInt64(words[0]) << 32 | UInt64(words[1]), low: UInt64(words[2]) << 32 | UInt64(words[3]))
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        var aa = a, bb = b, cc = c, dd = d
        for step in 0..<64 {
            let mixed: UInt32, word: Int
            switch step / 16 {
            case 0: (mixed, word) = (dd ^ (bb & (cc ^ dd)), step)
            case 1: (mixed, word) = (cc ^ (dd & (bb ^ cc)), (5 * step + 1) % 16)
            case 2: (mixed, word) = (bb ^ cc ^ dd, (3 * step + 5) % 16)
            default: (mixed, word) = (cc ^ (bb | ~dd), (7 * step) % 16)
            }
            let message = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 4 * word, as: UInt32.self))
            let sum = aa &+ mixed &+ Self.sines[step] &+ message
            let shift = Self.shifts[step / 16 * 4 + step % 4]
            (aa, dd, cc) = (dd, cc, bb)
            bb = bb &+ (sum << shift | sum >> (32 - shift))
        }
        a = a &+ aa
        b = b &+ bb
        c = c &+ cc
        d = d &+ dd
    }
}
