import Foundation
import TileSync

/// What the server knows of tile files it has read once, by their identity (device, inode,
/// size, modification and change times): the MD5 for the ETag and what the bytes are. A file
/// known again is answered from its descriptor without being read (sendfile), as nginx
/// answers; a file rewritten or replaced has another identity and is read again. A fixed
/// table: each identity has one slot, and a newer file takes the slot of an older one.
final class ServedFileTags: @unchecked Sendable {
    struct Entry {
        let hash: ContentHash
        /// The bytes' format and compression by their magic (`SniffedTileFormat(sniffing:)`).
        let sniffed: SniffedTileFormat
    }

    private struct Slot {
        let identity: TileFile.Identity
        let entry: Entry
    }

    private let slots: UnsafeMutablePointer<Slot?>
    private let mask: Int
    private let locks: [NSLock]

    /// - Parameter capacity: slots, rounded up to a power of two (about 80 bytes each).
    init(capacity: Int = 1 << 16) {
        var size = 64
        while size < capacity { size <<= 1 }
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: nil, count: size)
        locks = (0..<64).map { _ in NSLock() }
    }

    deinit {
        slots.deinitialize(count: mask + 1)
        slots.deallocate()
    }

    /// What was remembered for a file with this identity, nil when nothing is.
    func entry(for identity: TileFile.Identity) -> Entry? {
        let index = slotIndex(identity)
        let lock = locks[index & 63]
        lock.lock()
        defer { lock.unlock() }
        guard let slot = slots[index], slot.identity == identity else { return nil }
        return slot.entry
    }

    /// Remembers what a file's bytes are.
    func remember(_ entry: Entry, for identity: TileFile.Identity) {
        let index = slotIndex(identity)
        let lock = locks[index & 63]
        lock.lock()
        slots[index] = Slot(identity: identity, entry: entry)
        lock.unlock()
    }

    private func slotIndex(_ identity: TileFile.Identity) -> Int {
        var mixed = identity.inode &* 0x9E37_79B9_7F4A_7C15
        mixed ^= identity.device &* 0xC2B2_AE3D_27D4_EB4F
        mixed ^= UInt64(bitPattern: identity.modificationTime) &* 0x1656_67B1_9E37_79F9
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29)) & mask
    }
}
