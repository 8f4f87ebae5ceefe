import Foundation

/// The MD5 of each blob of a stream, batch by batch (`MultiLaneMD5`), where a blob equal byte for
/// byte to one that came at least twice before takes that blob's MD5 without being hashed again:
/// stores repeat a few blobs (ocean, land, empty tiles) very often, and comparing bytes costs a
/// fraction of hashing them.
///
/// A blob is looked up by a fingerprint of its length and five 8-byte words, then compared in
/// full, so a digest is only reused for identical bytes. The fingerprints of recent blobs are
/// kept (`seenSlots`); a blob whose fingerprint comes again is copied into a small table
/// (`knownSlots`, at most `knownBytes` bytes of blobs of at most `maxKnownBlobBytes` each).
/// Memory stays under 3 MB whatever the stream.
struct RepeatedBlobDigests {
    static let seenSlots = 1 << 14
    static let knownSlots = 1 << 10
    static let knownBytes = 2 << 20
    static let maxKnownBlobBytes = 64 << 10

    private struct Known {
        var fingerprint: UInt64
        var blob: Data
        var digest: ContentHash
    }

    private var hasher = MultiLaneMD5()
    private var seen: [UInt64]
    private var known: [Known?]
    private var knownByteCount = 0
    /// Blobs hashed so far (the others took a remembered digest).
    private(set) var hashedCount = 0

    init() {
        seen = Array(repeating: 0, count: Self.seenSlots)
        known = Array(repeating: nil, count: Self.knownSlots)
    }

    /// Frees the hashing buffer (the value may be used again); the remembered blobs go with the value.
    mutating func deallocate() {
        hasher.deallocate()
    }

    /// The MD5 of each message, in order.
    mutating func digests(of messages: [Data]) -> [ContentHash] {
        var results = [ContentHash](repeating: .unknown, count: messages.count)
        var fingerprints = [UInt64](repeating: 0, count: messages.count)
        var missing: [Int] = []
        for (index, message) in messages.enumerated() {
            let fingerprint = Self.fingerprint(of: message)
            fingerprints[index] = fingerprint
            if let entry = known[Self.knownSlot(fingerprint)], entry.fingerprint == fingerprint, entry.blob == message {
                results[index] = entry.digest
            } else {
                missing.append(index)
            }
        }
        guard !missing.isEmpty else { return results }
        let digests = hasher.digests(of: missing.map { messages[$0] })
        hashedCount += missing.count
        for (index, digest) in zip(missing, digests) {
            results[index] = digest
            remember(messages[index], fingerprint: fingerprints[index], digest: digest)
        }
        return results
    }

    /// Notes a hashed blob; the second time its fingerprint comes, copies it into `known`.
    private mutating func remember(_ blob: Data, fingerprint: UInt64, digest: ContentHash) {
        let seenSlot = Int(truncatingIfNeeded: fingerprint >> 50) & (Self.seenSlots - 1)
        guard seen[seenSlot] == fingerprint else {
            seen[seenSlot] = fingerprint
            return
        }
        guard blob.count <= Self.maxKnownBlobBytes else { return }
        let slot = Self.knownSlot(fingerprint)
        let replaced = known[slot]?.blob.count ?? 0
        guard knownByteCount - replaced + blob.count <= Self.knownBytes else { return }
        // A copy: the blob may be a slice of a larger buffer that must not stay alive.
        let copy = blob.withUnsafeBytes { Data($0) }
        known[slot] = Known(fingerprint: fingerprint, blob: copy, digest: digest)
        knownByteCount += blob.count - replaced
    }

    private static func knownSlot(_ fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: fingerprint) & (knownSlots - 1)
    }

    /// A hash of the length and the words at 0, 1/4, 1/2, 3/4 and the end (the bytes, below 8).
    static func fingerprint(of blob: Data) -> UInt64 {
        blob.withUnsafeBytes { bytes in
            let count = bytes.count
            var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
            func mix(_ word: UInt64) {
                hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 32
            }
            if count >= 8 {
                let last = count - 8
                mix(bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                mix(bytes.loadUnaligned(fromByteOffset: last / 4, as: UInt64.self))
                mix(bytes.loadUnaligned(fromByteOffset: last / 2, as: UInt64.self))
                mix(bytes.loadUnaligned(fromByteOffset: last - last / 4, as: UInt64.self))
                mix(bytes.loadUnaligned(fromByteOffset: last, as: UInt64.self))
            } else {
                for byte in bytes { mix(UInt64(byte)) }
            }
            return hash
        }
    }
}
