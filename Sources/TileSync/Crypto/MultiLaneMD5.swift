import Foundation

/// MD5 of many blobs at once, eight at a time in the lanes of `SIMD8<UInt32>`: each MD5 is a
/// chain of dependent steps that one core runs far below its throughput, and eight independent
/// chains fill it. About three times libcrypto's speed on a batch of tiles; for the per-tile
/// hashes (`tile_id`, sync indexes), never for one stream such as `agg_tiles_hash`.
///
/// A batch is copied into one buffer with each message already padded (RFC 1321: `0x80`,
/// zeros, the bit length), so a lane just walks 64-byte blocks; a lane whose message ends takes
/// the next one. Reuse one hasher per thread: the buffer is kept between batches.
struct MultiLaneMD5 {
    typealias Lanes = SIMD8<UInt32>
    private typealias Words = (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes,
                               Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes)

    private var padded: UnsafeMutableRawBufferPointer = .init(start: nil, count: 0)
    /// Fewer messages than this go through libcrypto one by one.
    static let minimumBatch = 3

    init() {}

    /// Frees the buffer (the hasher may be used again).
    mutating func deallocate() {
        padded.deallocate()
        padded = .init(start: nil, count: 0)
    }

    /// The MD5 of each message, in order.
    mutating func digests(of messages: [Data]) -> [ContentHash] {
        guard messages.count >= Self.minimumBatch else { return messages.map { ContentHash(of: $0) } }
        var offsets: [Int] = []
        offsets.reserveCapacity(messages.count + 1)
        var total = 0
        for message in messages {
            offsets.append(total)
            total += Self.paddedCount(message.count)
        }
        offsets.append(total)
        if padded.count < total {
            padded.deallocate()
            padded = .allocate(byteCount: max(total, padded.count * 2), alignment: 64)
        }
        guard let base = padded.baseAddress else { return messages.map { ContentHash(of: $0) } }
        for (index, message) in messages.enumerated() {
            Self.pad(message, into: base + offsets[index], paddedCount: offsets[index + 1] - offsets[index])
        }
        return Self.run(base: UnsafeRawPointer(base), offsets: offsets)
    }

    /// Bytes of a message of `count` bytes once padded: a multiple of 64 with room for `0x80`
    /// and the 8-byte length.
    static func paddedCount(_ count: Int) -> Int { (count + 8) / 64 * 64 + 64 }

    private static func pad(_ message: Data, into target: UnsafeMutableRawPointer, paddedCount: Int) {
        let count = message.count
        message.withUnsafeBytes { bytes in
            if let source = bytes.baseAddress { target.copyMemory(from: source, byteCount: count) }
        }
        target.storeBytes(of: 0x80, toByteOffset: count, as: UInt8.self)
        (target + count + 1).initializeMemory(as: UInt8.self, repeating: 0, count: paddedCount - count - 9)
        target.storeBytes(of: (UInt64(count) &* 8).littleEndian, toByteOffset: paddedCount - 8, as: UInt64.self)
    }

    /// Hashes the padded messages `offsets[i]..<offsets[i + 1]` of `base`.
    private static func run(base: UnsafeRawPointer, offsets: [Int]) -> [ContentHash] {
        let messageCount = offsets.count - 1
        var results = [ContentHash](repeating: .unknown, count: messageCount)
        let laneCount = Lanes.scalarCount
        // Per lane: the message it hashes (-1: idle), its next block and where its message ends.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * laneCount) { state in
            withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: laneCount) { blocks in
                var a = Lanes(repeating: 0x6745_2301), b = Lanes(repeating: 0xEFCD_AB89)
                var c = Lanes(repeating: 0x98BA_DCFE), d = Lanes(repeating: 0x1032_5476)
                var next = 0
                var busy = 0
                for lane in 0..<laneCount {
                    blocks[lane] = base
                    if next < messageCount {
                        state[lane] = next
                        state[laneCount + lane] = offsets[next]
                        state[2 * laneCount + lane] = offsets[next + 1]
                        next += 1
                        busy += 1
                    } else {
                        state[lane] = -1
                    }
                }
                while busy > 0 {
                    for lane in 0..<laneCount where state[lane] >= 0 {
                        blocks[lane] = base + state[laneCount + lane]
                    }
                    (a, b, c, d) = compress(a, b, c, d, gather(UnsafeBufferPointer(blocks)))
                    for lane in 0..<laneCount where state[lane] >= 0 {
                        state[laneCount + lane] += 64
                        guard state[laneCount + lane] == state[2 * laneCount + lane] else { continue }
                        results[state[lane]] = ContentHash(
                            high: UInt64(a[lane].byteSwapped) << 32 | UInt64(b[lane].byteSwapped),
                            low: UInt64(c[lane].byteSwapped) << 32 | UInt64(d[lane].byteSwapped))
                        a[lane] = 0x6745_2301
                        b[lane] = 0xEFCD_AB89
                        c[lane] = 0x98BA_DCFE
                        d[lane] = 0x1032_5476
                        if next < messageCount {
                            state[lane] = next
                            state[laneCount + lane] = offsets[next]
                            state[2 * laneCount + lane] = offsets[next + 1]
                            next += 1
                        } else {
                            state[lane] = -1
                            busy -= 1
                        }
                    }
                }
            }
        }
        return results
    }

    /// Word `w` of every lane's block, as lanes.
    @inline(__always)
    private static func gather(_ blocks: UnsafeBufferPointer<UnsafeRawPointer>) -> Words {
        @inline(__always)
        func word(_ index: Int) -> Lanes {
            let offset = index * 4
            return Lanes(
                UInt32(littleEndian: blocks[0].loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                UInt32(littleEndian: blocks[1].loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                UInt32(littleEndian: blocks[2].loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                UInt32(littleEndian: blocks[3].loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                UInt32(littleEndian: blocks[4].loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                UInt32(littleEndian: blocks[5].loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                UInt32(littleEndian: blocks[6].loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                UInt32(littleEndian: blocks[7].loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        return (word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7),
                word(8), word(9), word(10), word(11), word(12), word(13), word(14), word(15))
    }

    /// One 64-byte block of every lane (RFC 1321's four rounds of sixteen steps).
    @inline(__always)
    private static func compress(_ a0: Lanes, _ b0: Lanes, _ c0: Lanes, _ d0: Lanes, _ m: Words) -> (Lanes, Lanes, Lanes, Lanes) {
        let (a1, b1, c1, d1) = roundsOneAndTwo(a0, b0, c0, d0, m)
        let (a, b, c, d) = roundsThreeAndFour(a1, b1, c1, d1, m)
        return (a &+ a0, b &+ b0, c &+ c0, d &+ d0)
    }

    /// Rounds 1 (F) and 2 (G) of one block.
    @inline(__always)
    private static func roundsOneAndTwo(_ a0: Lanes, _ b0: Lanes, _ c0: Lanes, _ d0: Lanes, _ m: Words) -> (Lanes, Lanes, Lanes, Lanes) {
        var a = a0, b = b0, c = c0, d = d0
        a = Self.f(a, b, c, d, m.0, 0xD76AA478, 7)
        d = Self.f(d, a, b, c, m.1, 0xE8C7B756, 12)
        c = Self.f(c, d, a, b, m.2, 0x242070DB, 17)
        b = Self.f(b, c, d, a, m.3, 0xC1BDCEEE, 22)
        a = Self.f(a, b, c, d, m.4, 0xF57C0FAF, 7)
        d = Self.f(d, a, b, c, m.5, 0x4787C62A, 12)
        c = Self.f(c, d, a, b, m.6, 0xA8304613, 17)
        b = Self.f(b, c, d, a, m.7, 0xFD469501, 22)
        a = Self.f(a, b, c, d, m.8, 0x698098D8, 7)
        d = Self.f(d, a, b, c, m.9, 0x8B44F7AF, 12)
        c = Self.f(c, d, a, b, m.10, 0xFFFF5BB1, 17)
        b = Self.f(b, c, d, a, m.11, 0x895CD7BE, 22)
        a = Self.f(a, b, c, d, m.12, 0x6B901122, 7)
        d = Self.f(d, a, b, c, m.13, 0xFD987193, 12)
        c = Self.f(c, d, a, b, m.14, 0xA679438E, 17)
        b = Self.f(b, c, d, a, m.15, 0x49B40821, 22)
        a = Self.g(a, b, c, d, m.1, 0xF61E2562, 5)
        d = Self.g(d, a, b, c, m.6, 0xC040B340, 9)
        c = Self.g(c, d, a, b, m.11, 0x265E5A51, 14)
        b = Self.g(b, c, d, a, m.0, 0xE9B6C7AA, 20)
        a = Self.g(a, b, c, d, m.5, 0xD62F105D, 5)
        d = Self.g(d, a, b, c, m.10, 0x02441453, 9)
        c = Self.g(c, d, a, b, m.15, 0xD8A1E681, 14)
        b = Self.g(b, c, d, a, m.4, 0xE7D3FBC8, 20)
        a = Self.g(a, b, c, d, m.9, 0x21E1CDE6, 5)
        d = Self.g(d, a, b, c, m.14, 0xC33707D6, 9)
        c = Self.g(c, d, a, b, m.3, 0xF4D50D87, 14)
        b = Self.g(b, c, d, a, m.8, 0x455A14ED, 20)
        a = Self.g(a, b, c, d, m.13, 0xA9E3E905, 5)
        d = Self.g(d, a, b, c, m.2, 0xFCEFA3F8, 9)
        c = Self.g(c, d, a, b, m.7, 0x676F02D9, 14)
        b = Self.g(b, c, d, a, m.12, 0x8D2A4C8A, 20)
        return (a, b, c, d)
    }

    /// Rounds 3 (H) and 4 (I) of one block.
    @inline(__always)
    private static func roundsThreeAndFour(_ a0: Lanes, _ b0: Lanes, _ c0: Lanes, _ d0: Lanes, _ m: Words) -> (Lanes, Lanes, Lanes, Lanes) {
        var a = a0, b = b0, c = c0, d = d0
        a = Self.h(a, b, c, d, m.5, 0xFFFA3942, 4)
        d = Self.h(d, a, b, c, m.8, 0x8771F681, 11)
        c = Self.h(c, d, a, b, m.11, 0x6D9D6122, 16)
        b = Self.h(b, c, d, a, m.14, 0xFDE5380C, 23)
        a = Self.h(a, b, c, d, m.1, 0xA4BEEA44, 4)
        d = Self.h(d, a, b, c, m.4, 0x4BDECFA9, 11)
        c = Self.h(c, d, a, b, m.7, 0xF6BB4B60, 16)
        b = Self.h(b, c, d, a, m.10, 0xBEBFBC70, 23)
        a = Self.h(a, b, c, d, m.13, 0x289B7EC6, 4)
        d = Self.h(d, a, b, c, m.0, 0xEAA127FA, 11)
        c = Self.h(c, d, a, b, m.3, 0xD4EF3085, 16)
        b = Self.h(b, c, d, a, m.6, 0x04881D05, 23)
        a = Self.h(a, b, c, d, m.9, 0xD9D4D039, 4)
        d = Self.h(d, a, b, c, m.12, 0xE6DB99E5, 11)
        c = Self.h(c, d, a, b, m.15, 0x1FA27CF8, 16)
        b = Self.h(b, c, d, a, m.2, 0xC4AC5665, 23)
        a = Self.i(a, b, c, d, m.0, 0xF4292244, 6)
        d = Self.i(d, a, b, c, m.7, 0x432AFF97, 10)
        c = Self.i(c, d, a, b, m.14, 0xAB9423A7, 15)
        b = Self.i(b, c, d, a, m.5, 0xFC93A039, 21)
        a = Self.i(a, b, c, d, m.12, 0x655B59C3, 6)
        d = Self.i(d, a, b, c, m.3, 0x8F0CCC92, 10)
        c = Self.i(c, d, a, b, m.10, 0xFFEFF47D, 15)
        b = Self.i(b, c, d, a, m.1, 0x85845DD1, 21)
        a = Self.i(a, b, c, d, m.8, 0x6FA87E4F, 6)
        d = Self.i(d, a, b, c, m.15, 0xFE2CE6E0, 10)
        c = Self.i(c, d, a, b, m.6, 0xA3014314, 15)
        b = Self.i(b, c, d, a, m.13, 0x4E0811A1, 21)
        a = Self.i(a, b, c, d, m.4, 0xF7537E82, 6)
        d = Self.i(d, a, b, c, m.11, 0xBD3AF235, 10)
        c = Self.i(c, d, a, b, m.2, 0x2AD7D2BB, 15)
        b = Self.i(b, c, d, a, m.9, 0xEB86D391, 21)
        return (a, b, c, d)
    }

    @inline(__always)
    private static func rotate(_ x: Lanes, _ s: UInt32) -> Lanes {
        // Added, not or-ed: the bits do not overlap, and LLVM then keeps vector shifts where it
        // would turn an or into one scalar rotate per lane (SSE2 has no vector rotate).
        (x &<< s) &+ (x &>> (32 - s))
    }

    @inline(__always)
    private static func f(_ a: Lanes, _ b: Lanes, _ c: Lanes, _ d: Lanes, _ m: Lanes, _ k: UInt32, _ s: UInt32) -> Lanes {
        b &+ rotate(a &+ (d ^ (b & (c ^ d))) &+ m &+ k, s)
    }

    @inline(__always)
    private static func g(_ a: Lanes, _ b: Lanes, _ c: Lanes, _ d: Lanes, _ m: Lanes, _ k: UInt32, _ s: UInt32) -> Lanes {
        b &+ rotate(a &+ (c ^ (d & (b ^ c))) &+ m &+ k, s)
    }

    @inline(__always)
    private static func h(_ a: Lanes, _ b: Lanes, _ c: Lanes, _ d: Lanes, _ m: Lanes, _ k: UInt32, _ s: UInt32) -> Lanes {
        b &+ rotate(a &+ (b ^ c ^ d) &+ m &+ k, s)
    }

    @inline(__always)
    private static func i(_ a: Lanes, _ b: Lanes, _ c: Lanes, _ d: Lanes, _ m: Lanes, _ k: UInt32, _ s: UInt32) -> Lanes {
        b &+ rotate(a &+ (c ^ (b | ~d)) &+ m &+ k, s)
    }
}
