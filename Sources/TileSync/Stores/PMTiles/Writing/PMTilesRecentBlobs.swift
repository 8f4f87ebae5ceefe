import Foundation

/// The blobs a PMTiles written in tile-ID order stored lately, by MD5, so that a repeat (ocean,
/// empty tiles) points back to them, in a table of fixed size (`limit` slots of 32 bytes, 2 MiB
/// by default) whatever the archive holds. The table is set-associative: an MD5 has eight
/// slots; when they are full, the one repeated least (and, among those, stored first) is
/// forgotten and the others' repeat counts are halved, so that blobs that keep repeating stay.
/// A forgotten blob that comes again is stored again, which `hasEvicted` tells the writer to
/// look for.
struct PMTilesRecentBlobs {
    private struct Slot {
        var hashHigh: UInt64 = 0
        var hashLow: UInt64 = 0
        /// The blob's offset plus one; 0 for an empty slot.
        var offsetPlusOne: UInt64 = 0
        var length: UInt32 = 0
        var repeats: UInt32 = 0
    }

    /// Slots by default: 65,536 (2 MiB).
    static let defaultLimit = 1 << 16
    private static let ways = 8

    /// Blobs remembered at most (a multiple of eight, a power of two).
    let limit: Int
    private var slots: [Slot]
    private let setMask: UInt64
    /// True once a blob was forgotten.
    private(set) var hasEvicted = false

    /// - Parameter limit: blobs remembered at most, rounded up to a power of two of at least 8.
    init(limit: Int = Self.defaultLimit) {
        var sets = 1
        while sets * Self.ways < limit { sets <<= 1 }
        self.limit = sets * Self.ways
        setMask = UInt64(sets - 1)
        slots = Array(repeating: Slot(), count: sets * Self.ways)
    }

    /// The place of a remembered blob with this MD5 (counted as a repeat), or nil.
    mutating func place(of hash: ContentHash) -> (offset: UInt64, length: UInt32)? {
        let start = firstSlot(of: hash)
        for index in start..<start + Self.ways {
            let slot = slots[index]
            if slot.offsetPlusOne != 0, slot.hashLow == hash.low, slot.hashHigh == hash.high {
                slots[index].repeats = slot.repeats == .max ? .max : slot.repeats + 1
                return (slot.offsetPlusOne - 1, slot.length)
            }
        }
        return nil
    }

    /// Remembers a blob just stored (at `offset` in the tile data), forgetting another when its
    /// slots are full.
    mutating func remember(_ hash: ContentHash, offset: UInt64, length: UInt32) {
        let start = firstSlot(of: hash)
        var victim = start
        for index in start..<start + Self.ways {
            let slot = slots[index]
            if slot.offsetPlusOne == 0 {
                victim = index
                break
            }
            let best = slots[victim]
            if (slot.repeats, slot.offsetPlusOne) < (best.repeats, best.offsetPlusOne) { victim = index }
        }
        if slots[victim].offsetPlusOne != 0 {
            hasEvicted = true
            for index in start..<start + Self.ways { slots[index].repeats >>= 1 }
        }
        slots[victim] = Slot(hashHigh: hash.high, hashLow: hash.low, offsetPlusOne: offset + 1, length: length, repeats: 0)
    }

    private func firstSlot(of hash: ContentHash) -> Int {
        Int(truncatingIfNeeded: (hash.low ^ (hash.high >> 29)) & setMask) * Self.ways
    }
}
