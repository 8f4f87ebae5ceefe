public import Foundation

extension ContentHash {
    /// MD5s of blobs remembered by a fast 128-bit fingerprint of their bytes (`BlobFingerprint`,
    /// several times cheaper than MD5), for a server that sends each tile's MD5 as its ETag and is
    /// asked for the same tiles again and again. A fixed table of `capacity` slots, each holding the
    /// last blob that fell into it: memory stays the same however many blobs pass, and a blob is
    /// known by its content, so a store that changes can never get a stale hash. Two different blobs
    /// with the same fingerprint would share an MD5; that takes crafted bytes (as MD5 collisions do).
    /// Thread-safe: slots are guarded by 64 striped locks.
    public final class Memo: @unchecked Sendable {
        private struct Slot {
            var fingerprint: ContentHash
            var count: Int
            var hash: ContentHash
        }

        private let slots: UnsafeMutablePointer<Slot>
        private let mask: Int
        private let locks: [NSLock]

        /// - Parameter capacity: slots, rounded up to a power of two (40 bytes each).
        public init(capacity: Int = 1 << 16) {
            var size = 64
            while size < capacity { size <<= 1 }
            mask = size - 1
            slots = .allocate(capacity: size)
            slots.initialize(repeating: Slot(fingerprint: ContentHash(high: 0, low: 0), count: -1, hash: ContentHash(high: 0, low: 0)), count: size)
            locks = (0..<64).map { _ in NSLock() }
        }

        deinit {
            slots.deinitialize(count: mask + 1)
            slots.deallocate()
        }

        /// The MD5 of `data` (`ContentHash(of:)`), computed once per distinct blob while it stays in
        /// its slot.
        public func md5(of data: Data) -> ContentHash {
            let fingerprint = BlobFingerprint.of(data)
            let index = Int(truncatingIfNeeded: fingerprint.low) & mask
            let lock = locks[index & 63]
            lock.lock()
            let slot = slots[index]
            lock.unlock()
            if slot.count == data.count, slot.fingerprint == fingerprint { return slot.hash }
            let hash = ContentHash(of: data)
            lock.lock()
            slots[index] = Slot(fingerprint: fingerprint, count: data.count, hash: hash)
            lock.unlock()
            return hash
        }
    }
}
