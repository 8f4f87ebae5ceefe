import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writes of one database file opened through `SQLiteStagedWriteVFS`: SQLite's page writes
/// are copied into 1 MiB buffers (a run of consecutive pages into one buffer) that a
/// `BufferWriteQueue` thread writes at their offsets through a descriptor of its own (direct
/// I/O where the file system allows it, else buffered with early writeback). Buffers are written
/// in the order they were filled, so a page written twice ends with its later bytes.
///
/// Errors are `POSIXFileError`s; a failed write is reported by the next call.
final class SQLiteStagedFile {
    static let bufferSize = 1 << 20
    /// 4 MiB in flight at most: SQLite waits when the disk is slower than the inserts (one
    /// buffer fills in a few milliseconds of inserts, a direct write of it takes about one).
    static let bufferCount = 4

    let path: String
    private let queue: BufferWriteQueue
    private var current: UnsafeMutableRawBufferPointer
    /// The file offset of `current`'s first byte.
    private var start = 0
    private var filled = 0
    private var isFinished = false

    /// Opens a second descriptor of the existing file `path` and starts the writing thread.
    /// - Throws: `POSIXFileError` when the file cannot be opened for writing.
    init(path: String) throws(POSIXFileError) {
        self.path = path
        let (descriptor, isDirect) = BufferWriteQueue.openForWriting(path, flags: O_WRONLY | O_CLOEXEC, direct: true)
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
        queue = BufferWriteQueue(path: path, descriptor: descriptor, isDirect: isDirect,
                                 buffers: BufferWriteQueue.makeBuffers(count: Self.bufferCount, size: Self.bufferSize))
        current = queue.firstBuffer
    }

    deinit {
        if !isFinished { queue.finish() }
    }

    /// Stages `bytes` for the file offset `offset`.
    /// - Throws: the error of a write that failed by now.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(POSIXFileError) {
        if filled > 0 && offset != start + filled { try handOver() }
        if filled == 0 { start = offset }
        var copied = 0
        while copied < bytes.count {
            let chunk = min(bytes.count - copied, current.count - filled)
            if let source = bytes.baseAddress, let target = current.baseAddress {
                (target + filled).copyMemory(from: source + copied, byteCount: chunk)
            }
            filled += chunk
            copied += chunk
            if filled == current.count {
                try handOver()
                start = offset + copied
            }
        }
    }

    /// Makes `range` of the file readable: when a staged buffer covers part of it, writes
    /// everything staged and waits for it; else returns at once (SQLite reading back a page it
    /// wrote long ago does not wait for the pages it wrote since).
    /// - Throws: the first failed write.
    func prepareRead(_ range: Range<Int>) throws(POSIXFileError) {
        let current = start..<start + filled
        if filled > 0 && current.overlaps(range) || queue.holdsUnwritten(range) {
            try writeStaged()
        } else if let failure = queue.firstFailure {
            throw failure
        }
    }

    /// Writes everything staged and waits for it (before SQLite syncs, truncates or asks the
    /// file's size).
    /// - Throws: the first failed write.
    func writeStaged() throws(POSIXFileError) {
        if filled > 0 { try handOver() }
        if let failure = queue.waitUntilWritten() { throw failure }
    }

    /// Writes everything staged and ends the writing thread; the descriptor stays open until
    /// `closeDescriptor()` (closing it drops the process's POSIX locks on the file, which SQLite
    /// holds until it closes its own).
    /// - Throws: the first failed write.
    func finish() throws(POSIXFileError) {
        guard !isFinished else { return }
        var failure: POSIXFileError?
        do { try writeStaged() } catch { failure = error }
        isFinished = true
        queue.finish()
        if let failure { throw failure }
    }

    /// After `finish()` and SQLite's own close: closes the writing descriptor.
    /// - Throws: the first failed write, or the close's error.
    func closeDescriptor() throws(POSIXFileError) {
        try queue.closeFile()
    }

    private func handOver() throws(POSIXFileError) {
        current = queue.handOver(current, count: filled, offset: start)
        filled = 0
        if let failure = queue.firstFailure { throw failure }
    }
}
