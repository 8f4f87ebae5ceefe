import Foundation

/// One MD5 stream fed from one thread and computed on a thread of its own, so the thread that
/// reads the bytes (an SQLite scan) and the hashing run side by side. Bytes are copied into
/// chunks of `chunkBytes` and handed over through a queue bounded in bytes; the order is kept.
final class BackgroundMD5Hasher: @unchecked Sendable {
    static let chunkBytes = 1 << 20

    private let hasher = MD5Hasher()
    private let queue = BoundedBatchQueue<[UInt8]>(maxBytes: 8 << 20)
    private var chunk: [UInt8] = []
    private var result: Result<ContentHash, DigestError>?
    private var isStopped = false

    init() {
        chunk.reserveCapacity(Self.chunkBytes)
        let thread = Thread { [self] in work() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        stop()
    }

    /// Adds bytes to the stream.
    func update(_ bytes: UnsafeRawBufferPointer) {
        chunk.append(contentsOf: bytes)
        if chunk.count >= Self.chunkBytes { handOver() }
    }

    /// Waits for every byte to be hashed and gives the digest.
    /// - Throws: `DigestError` when libcrypto failed on the way.
    func finalize() throws(DigestError) -> ContentHash {
        stop()
        guard let result else { throw DigestError(operation: "a hashing thread that gave no digest") }
        return try result.get()
    }

    private func stop() {
        guard !isStopped else { return }
        isStopped = true
        handOver()
        queue.close()
        queue.waitUntilFinished()
    }

    private func handOver() {
        guard !chunk.isEmpty else { return }
        var batch = [chunk]
        let bytes = chunk.count
        chunk = []
        chunk.reserveCapacity(Self.chunkBytes)
        queue.put(&batch, bytes: bytes)
    }

    private func work() {
        var batch: [[UInt8]] = []
        while queue.take(into: &batch) {
            for bytes in batch { bytes.withUnsafeBytes { hasher.update($0) } }
        }
        result = Result { () throws(DigestError) in try hasher.finalize() }
        queue.markFinished()
    }
}
