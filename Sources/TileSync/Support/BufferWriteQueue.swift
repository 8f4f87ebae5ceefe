import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writing side of `SequentialFileOutput`: owns the file and the buffers, and a thread that
/// writes queued buffers at their offsets (directly when the file is open for direct I/O and
/// the buffer is 4 KiB-aligned, else buffered with early writeback). The thread holds this object
/// (never the output), so an output dropped without `close()` still goes away: its `deinit`
/// calls `finish()`, which lets the thread drain the queue and end.
final class BufferWriteQueue: @unchecked Sendable {
    /// Offsets and sizes of direct writes are multiples of this (any block size up to 4 KiB).
    static let directAlignment = 4096

    let path: String
    private var descriptor: Int32
    /// Used by the writing thread only, once it runs.
    private var isDirect: Bool
    private var writeback = EarlyWriteback()
    private let writesBackEarly: Bool
    private let buffers: [UnsafeMutableRawBufferPointer]

    private let condition = NSCondition()
    private var free: [UnsafeMutableRawBufferPointer]
    private var pending: [(buffer: UnsafeMutableRawBufferPointer, count: Int, offset: Int)] = []
    /// The file range of the buffer the thread is writing, if any.
    private var writing: Range<Int>?
    private var isClosing = false
    private var isFinished = false
    private var failure: POSIXFileError?

    /// Takes over the open `descriptor` and `buffers` (the first is the caller's to fill) and
    /// starts the writing thread.
    /// - Parameter writesBackEarly: start writeback of buffered writes as they go (files that
    ///   will be flushed); false for scratch files that are read back and dropped.
    init(path: String, descriptor: Int32, isDirect: Bool, buffers: [UnsafeMutableRawBufferPointer], writesBackEarly: Bool = true) {
        self.writesBackEarly = writesBackEarly
        self.path = path
        self.descriptor = descriptor
        self.isDirect = isDirect
        self.buffers = buffers
        free = Array(buffers.dropFirst())
        let thread = Thread { [self] in work() }
        thread.stackSize = 256 << 10
        thread.start()
    }

    deinit {
        if descriptor >= 0 { _ = Self.closeFile(descriptor) }
        for buffer in buffers { buffer.deallocate() }
    }

    /// The first buffer, for the caller to fill first.
    var firstBuffer: UnsafeMutableRawBufferPointer { buffers[0] }

    /// Queues `count` bytes of `buffer` for the file offset `offset` and returns a free buffer,
    /// waiting while all are queued (after a failed write the thread still hands buffers back,
    /// writing nothing more).
    func handOver(_ buffer: UnsafeMutableRawBufferPointer, count: Int, offset: Int) -> UnsafeMutableRawBufferPointer {
        condition.lock()
        defer { condition.unlock() }
        pending.append((buffer, count, offset))
        condition.broadcast()
        while free.isEmpty { condition.wait() }
        return free.removeLast()
    }

    /// The first failed write so far.
    var firstFailure: POSIXFileError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// Waits until every queued buffer is written (or skipped after a failure).
    /// - Returns: the first failed write so far.
    func waitUntilWritten() -> POSIXFileError? {
        condition.lock()
        defer { condition.unlock() }
        while !pending.isEmpty || writing != nil { condition.wait() }
        return failure
    }

    /// Whether a queued buffer, or the one being written, covers part of `range` of the file.
    func holdsUnwritten(_ range: Range<Int>) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if let writing, writing.overlaps(range) { return true }
        return pending.contains { ($0.offset..<$0.offset + $0.count).overlaps(range) }
    }

    /// Lets the thread write what is queued, then end; waits for it.
    func finish() {
        condition.lock()
        isClosing = true
        condition.broadcast()
        while !isFinished { condition.wait() }
        condition.unlock()
    }

    /// After `finish()`: closes the file (also after a failed write).
    /// - Throws: the first write error, or the close's.
    func closeFile() throws(POSIXFileError) {
        guard descriptor >= 0 else {
            if let failure { throw failure }
            return
        }
        let result = Self.closeFile(descriptor)
        let closeError = errno
        descriptor = -1
        if let failure { throw failure }
        if result != 0 { throw POSIXFileError(operation: "close", path: path, code: closeError) }
    }

    private func work() {
        condition.lock()
        while true {
            while pending.isEmpty && !isClosing { condition.wait() }
            guard !pending.isEmpty else { break }
            let job = pending.removeFirst()
            writing = job.offset..<job.offset + job.count
            let skip = failure != nil
            condition.unlock()
            var error: POSIXFileError?
            if !skip {
                do {
                    try write(job.buffer, count: job.count, at: job.offset)
                } catch let failed {
                    error = failed
                }
            }
            condition.lock()
            if let error, failure == nil { failure = error }
            writing = nil
            free.append(job.buffer)
            condition.broadcast()
        }
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Writes one buffer at its offset: directly when both are aligned, else buffered.
    private func write(_ buffer: UnsafeMutableRawBufferPointer, count: Int, at offset: Int) throws(POSIXFileError) {
        guard let base = buffer.baseAddress else { return }
        if isDirect && (count % Self.directAlignment != 0 || offset % Self.directAlignment != 0) {
            try leaveDirectMode()
        }
        do {
            try Self.writeAll(descriptor, base, count, at: offset, path: path)
        } catch where error.code == EINVAL && isDirect {
            try leaveDirectMode()
            try Self.writeAll(descriptor, base, count, at: offset, path: path)
        }
        if !isDirect && writesBackEarly { writeback.wrote(count, descriptor: descriptor) }
    }

    /// Switches the descriptor to buffered writes (a file system that refuses a direct write, or
    /// an unaligned end).
    private func leaveDirectMode() throws(POSIXFileError) {
        guard isDirect, let directFlag = Self.directFlag else { return }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~directFlag) == 0 else {
            throw POSIXFileError(operation: "fcntl", path: path, code: errno)
        }
        isDirect = false
    }

    /// Opens `path` for writing with `flags`, for direct I/O first when `direct` is true and the
    /// platform has it.
    /// - Returns: the descriptor (-1 when both opens failed, `errno` set) and whether it is direct.
    static func openForWriting(_ path: String, flags: Int32, direct: Bool) -> (descriptor: Int32, isDirect: Bool) {
        if direct, let directFlag {
            let descriptor = retryingOnInterrupt { open(path, flags | directFlag, 0o644) }
            if descriptor >= 0 { return (descriptor, true) }
        }
        return (retryingOnInterrupt { open(path, flags, 0o644) }, false)
    }

    /// `count` buffers of `size` bytes, aligned for direct I/O and zeroed at once: resident from
    /// the start, so memory is the same for a small file and a large one (and no page faults
    /// later, on the hot path).
    static func makeBuffers(count: Int, size: Int) -> [UnsafeMutableRawBufferPointer] {
        (0..<count).map { _ in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: directAlignment)
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return buffer
        }
    }

    private static func writeAll(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int, at offset: Int,
                                 path: String) throws(POSIXFileError) {
        var written = 0
        while written < count {
            let result = retryingOnInterrupt { pwrite(descriptor, base + written, count - written, off_t(offset + written)) }
            if result < 0 {
                throw POSIXFileError(operation: "write", path: path, code: errno)
            }
            if result == 0 { throw POSIXFileError(operation: "write", path: path, code: EIO) }
            written += result
        }
    }

    private static func closeFile(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }

    /// Linux's `O_DIRECT`, which Glibc's Swift module does not export (it needs `_GNU_SOURCE`);
    /// its value depends on the architecture. nil where TileSync does not know it.
    static var directFlag: Int32? {
        #if os(Linux) && (arch(x86_64) || arch(i386))
        0o40000
        #elseif os(Linux) && (arch(arm64) || arch(arm))
        0o200000
        #else
        nil
        #endif
    }
}
