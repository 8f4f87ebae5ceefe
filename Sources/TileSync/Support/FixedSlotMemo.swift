import Foundation

/// Values remembered by key in a fixed table of slots: a key has one slot (by its hash value),
/// and a newer key takes the slot of an older one, so memory stays the same however many keys
/// pass. For answers that are costly to compute and cheap to recognise (a tile's MD5 by a
/// fingerprint of its bytes, by its file's identity). Thread-safe: slots are guarded by 64
/// striped locks.
public final class FixedSlotMemo<Key: Hashable, Value>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<(key: Key, value: Value)?>
    private let mask: Int
    private let locks: [NSLock]

    /// - Parameter capacity: slots, rounded up to a power of two (at least 64).
    public init(capacity: Int) {
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

    /// The value remembered for `key`, nil when its slot holds another key or none.
    public func value(for key: Key) -> Value? {
        let index = key.hashValue & mask
        let lock = locks[index & 63]
        lock.lock()
        defer { lock.unlock() }
        guard let slot = slots[index], slot.key == key else { return nil }
        return slot.value
    }

    /// Remembers `value` for `key`, in place of what its slot held.
    public func remember(_ value: Value, for key: Key) {
        let index = key.hashValue & mask
        let lock = locks[index & 63]
        lock.lock()
        slots[index] = (key, value)
        lock.unlock()
    }
}
