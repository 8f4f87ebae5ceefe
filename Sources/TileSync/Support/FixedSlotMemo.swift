public import Synchronization

/// Values remembered by key in a fixed table: a key belongs to one set of four slots (by its
/// hash value), and a new key in a full set takes the slot of the set's oldest key, so memory
/// stays the same however many keys pass. Four ways keep keys that share a set from evicting
/// each other: with as many keys as a third of the slots, a one-slot table loses about a quarter
/// of them to collisions, this one almost none. For answers that are costly to compute and cheap
/// to recognise (a tile's MD5 by a fingerprint of its bytes, by its file's identity).
/// Thread-safe: sets are guarded by 64 striped locks. Inlinable, so that a caller's key and
/// value types are compiled in (a server asks on every request).
public final class FixedSlotMemo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    @usableFromInline static var ways: Int { 4 }
    @usableFromInline static var lockCount: Int { 64 }
    /// Locks are this many `Mutex`es apart, a cache line of 128 bytes or more: threads taking
    /// neighbouring locks do not pass a line back and forth.
    @usableFromInline static var lockSpacing: Int { max(1, (128 + MemoryLayout<Mutex<Void>>.stride - 1) / MemoryLayout<Mutex<Void>>.stride) }
    @usableFromInline let slots: UnsafeMutablePointer<(key: Key, value: Value)?>
    @usableFromInline let setMask: Int
    @usableFromInline let locks: UnsafeMutablePointer<Mutex<Void>>

    /// - Parameter capacity: slots, rounded up to a power of two (at least 64).
    public init(capacity: Int) {
        var size = 64
        while size < capacity { size <<= 1 }
        setMask = size / Self.ways - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: nil, count: size)
        locks = .allocate(capacity: Self.lockCount * Self.lockSpacing)
        for index in 0..<Self.lockCount { (locks + index * Self.lockSpacing).initialize(to: Mutex(())) }
    }

    deinit {
        slots.deinitialize(count: (setMask + 1) * Self.ways)
        slots.deallocate()
        for index in 0..<Self.lockCount { (locks + index * Self.lockSpacing).deinitialize(count: 1) }
        locks.deallocate()
    }

    /// The value remembered for `key`, nil when its set does not hold it.
    @inlinable
    public func value(for key: Key) -> Value? {
        let set = key.hashValue & setMask
        return lock(ofSet: set).pointee.withLock { _ in
            let first = set * Self.ways
            for way in first..<first + Self.ways {
                guard let slot = slots[way] else { return nil }
                if slot.key == key { return slot.value }
            }
            return nil
        }
    }

    /// Remembers `value` for `key`: in place of the value it had, else first in its set, the
    /// set's oldest key dropped when the set was full.
    @inlinable
    public func remember(_ value: Value, for key: Key) {
        let set = key.hashValue & setMask
        lock(ofSet: set).pointee.withLock { _ in remember(value, for: key, inSet: set) }
    }

    /// The lock guarding a set.
    @usableFromInline
    func lock(ofSet set: Int) -> UnsafeMutablePointer<Mutex<Void>> {
        locks + (set & (Self.lockCount - 1)) * Self.lockSpacing
    }

    @usableFromInline
    func remember(_ value: Value, for key: Key, inSet set: Int) {
        let first = set * Self.ways
        var last = first + Self.ways - 1
        for way in first..<first + Self.ways {
            guard let slot = slots[way] else {
                last = way
                break
            }
            if slot.key == key {
                last = way
                break
            }
        }
        var way = last
        while way > first {
            slots[way] = slots[way - 1]
            way -= 1
        }
        slots[first] = (key, value)
    }
}
