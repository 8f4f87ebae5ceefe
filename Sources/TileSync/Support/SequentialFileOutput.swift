import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a new file front to back through 1 MiB buffers (6 of them) that a second thread
/// writes out while the caller fills the next one.
///
/// On Linux the file is opened for direct I/O (`O_DIRECT`) where the file system allows it: the
/// buffers go to the disk without a copy into the page cache and without write-back work later,
/// which leaves the CPU to the threads that read and convert. A buffer whose size or offset is not a
/// multiple of 4 KiB (the end of the file) is written buffered.
/// Elsewhere, or when the file system refuses direct I/O, writes are buffered, with early
/// write-back (`EarlyWriteback`). Either way, `close()` leaves the bytes ready for the `fsync`
/// that the caller does before renaming the file into place.
///
/// Errors are `POSIXFileError`s naming `path`; a failed write is reported by the next call
/// (`append`, `close`). The writing thread and the file belong to a `BufferWriteQueue`.
final class SequentialFileOutput {
    static let bufferSize = 1 << 20
    /// 6 MiB in flight: a disk that stalls for a moment does not stall the conversion at once,
    /// while memory stays flat when a fast source fills them all.
    private static let bufferCount = 6

    let path: String
    /// Bytes appended so far.
    private(set) var count = 0

    private let queue: BufferWriteQueue
    private var current: UnsafeMutableRawBufferPointer
    private var filled = 0
    private var isClosed = false

    /// Creates (truncates) `path` and starts the writing thread.
    /// - Parameters:
    ///   - direct: try direct I/O (Linux).
    ///   - writesBackEarly: with buffered writes, start writeback as they go (false for a
    ///     scratch file that is read back and dropped, never flushed).
    /// - Throws: `POSIXFileError` when the file cannot be created.
    init(path: String, direct: Bool = true, writesBackEarly: Bool = true) throws(POSIXFileError) {
        self.path = path
        let (descriptor, isDirect) = BufferWriteQueue.openForWriting(path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, direct: direct)
        guard descriptor >= 0 else { throw POSIXFileError(operation: "create", path: path, code: errno) }
        let buffers = BufferWriteQueue.makeBuffers(count: Self.bufferCount, size: Self.bufferSize)
        queue = BufferWriteQueue(path: path, descriptor: descriptor, isDirect: isDirect, buffers: buffers, writesBackEarly: writesBackEarly)
        current = queue.firstBuffer
    }

    deinit {
        guard !isClosed else { return }
        queue.finish()
        // The file is closed here, not when the writing thread lets go of the queue a moment later.
        try? queue.closeFile()
    }

    /// Appends bytes.
    /// - Throws: `POSIXFileError` when an earlier write failed (disk full, I/O error).
    func append(_ bytes: UnsafeRawBufferPointer) throws(POSIXFileError) {
        var offset = 0
        while offset < bytes.count {
            if filled == current.count { try handOver() }
            let chunk = min(bytes.count - offset, current.count - filled)
            if let source = bytes.baseAddress, let target = current.baseAddress {
                (target + filled).copyMemory(from: source + offset, byteCount: chunk)
            }
            filled += chunk
            count += chunk
            offset += chunk
        }
    }

    /// Appends `zeros` zero bytes.
    /// - Throws: as `append(_:)`.
    func appendZeros(_ zeros: Int) throws(POSIXFileError) {
        var remaining = zeros
        while remaining > 0 {
            if filled == current.count { try handOver() }
            let chunk = min(remaining, current.count - filled)
            if let target = current.baseAddress { (target + filled).initializeMemory(as: UInt8.self, repeating: 0, count: chunk) }
            filled += chunk
            count += chunk
            remaining -= chunk
        }
    }

    /// Appends `size` bytes that `body` writes in place (in the buffer when it has room, else in
    /// a temporary that is then copied).
    /// - Throws: as `append(_:)`.
    func appendInPlace(_ size: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) throws(POSIXFileError) {
        if filled == current.count { try handOver() }
        if current.count - filled >= size, let base = current.baseAddress {
            body(UnsafeMutableRawBufferPointer(start: base + filled, count: size))
            filled += size
            count += size
            return
        }
        var failure: POSIXFileError?
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { temporary in
            body(temporary)
            do throws(POSIXFileError) { try append(UnsafeRawBufferPointer(temporary)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Lets `fill` write up to `maximum` bytes straight into the current buffer (as many as it
    /// has room for) and appends the bytes `fill` says it wrote; no copy (a file read into it).
    /// - Returns: the bytes appended.
    /// - Throws: as `append(_:)`.
    func appendFilling(maximum: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Int) throws(POSIXFileError) -> Int {
        if filled == current.count { try handOver() }
        guard let base = current.baseAddress else { return 0 }
        let room = min(maximum, current.count - filled)
        let written = min(room, fill(UnsafeMutableRawBufferPointer(start: base + filled, count: room)))
        filled += written
        count += written
        return written
    }

    /// Writes what is buffered and closes the file (not synced: the caller syncs before renaming).
    /// - Throws: `POSIXFileError` when a write or the close fails.
    func close() throws(POSIXFileError) {
        guard !isClosed else { return }
        isClosed = true
        var failure: POSIXFileError?
        if filled > 0 {
            do { try handOver() } catch { failure = error }
        }
        queue.finish()
        if let failure {
            try? queue.closeFile()
            throw failure
        }
        try queue.closeFile()
    }

    /// Queues the current buffer for the writing thread and takes a free one.
    /// - Throws: the error of a write that failed by now.
    private func handOver() throws(POSIXFileError) {
        current = queue.handOver(current, count: filled, offset: count - filled)
        filled = 0
        if let failure = queue.firstFailure { throw failure }
    }
}
