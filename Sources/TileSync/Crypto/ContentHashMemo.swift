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
        /// A blob as the table knows it: its fingerprint and its length.
        private struct Blob: Hashable, Sendable {
            let fingerprint: ContentHash
            let count: Int
        }

        private let table: FixedSlotMemo<Blob, ContentHash>

        /// - Parameter capacity: slots, rounded up to a power of two (about 50 bytes each).
        public init(capacity: Int = 1 << 16) {
            table = FixedSlotMemo(capacity: capacity)
        }

        /// The MD5 of `data` (`ContentHash(of:)`), computed once per distinct blob while it stays in
        /// its slot.
        public func md5(of data: Data) -> ContentHash {
            let blob = Blob(fingerprint: BlobFingerprint.of(data), count: data.count)
            if let known = table.value(for: blob) { return known }
            let hash = ContentHash(of: data)
            table.remember(hash, for: blob)
            return hash
        }
    }
}
