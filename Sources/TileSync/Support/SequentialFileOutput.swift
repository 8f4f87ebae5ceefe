import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a new file front to back through 1 MiB buffers that a second thread writes out while
/// the caller fills the next one.
///
/// On Linux the file is opened for direct I/O (`O_DIRECT`) where the file system allows it: the
/// buffers go to the disk without a copy into the page cache and without write-back work later,
/// which leaves the CPU to the threads that read and convert (a buffered write of 1 GB costs
/// about 0.6 s of CPU, a direct one about 0.1 s). A buffer whose size or offset is not a
/// multiple of 4 KiB (the end of the file) is written buffered.
/// Elsewhere, or when the file system refuses direct I/O, writes are buffered, with early
/// write-back (`EarlyWriteback`). Either way, `close()` leaves the bytes ready for the `fsync`
/// that the caller does before renaming the file into place.
///
/// Errors are `POSIXFileError`s naming `path`; a failed write is reported by the next call
/// (`append`, `close`).
final class SequentialFileOutput: @unchecked Sendable {
    static let bufferSize = 1 << 20
    private static let bufferCount = 3
    /// Offsets and sizes of direct writes are multiples of this (any block size up to 4 KiB).
    private static let directAlignment = 4096

    let path: String
    /// Bytes appended so far.
    private(set) var count = 0
    /// True while the file is open for direct I/O (used by the writing thread only, once started).
    private var isDirect = false

    private var descriptor: Int32
    private var current: UnsafeMutableRawBufferPointer
    private var filled = 0
    private var allBuffers: [UnsafeMutableRawBufferPointer] = []

    private let condition = NSCondition()
    private var free: [UnsafeMutableRawBufferPointer] = []
    private var pending: [(buffer: UnsafeMutableRawBufferPointer, count: Int, offset: Int)] = []
    private var isClosing = false
    private var isFinished = false
    private var failure: POSIXFileError?
    private var writeback = EarlyWriteback()

    /// Creates (truncates) `path` and starts the writing thread.
    /// - Parameter direct: try direct I/O (Linux).
    /// - Throws: `POSIXFileError` when the file cannot be created.
    init(path: String, direct: Bool = true) throws(POSIXFileError) {
        self.path = path
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        var opened: Int32 = -1
        if direct, let directFlag = Self.directFlag {
            opened = open(path, flags | directFlag, 0o644)
            isDirect = opened >= 0
        }
        if opened < 0 { opened = open(path, flags, 0o644) }
        guard opened >= 0 else { throw POSIXFileError(operation: "create", path: path, code: errno) }
        descriptor = opened
        for _ in 0..<Self.bufferCount {
            allBuffers.append(.allocate(byteCount: Self.bufferSize, alignment: Self.directAlignment))
        }
        current = allBuffers[0]
        free = Array(allBuffers.dropFirst())
        // Unowned: an output dropped without `close()` (an aborted write) still deinitializes,
        // and `deinit` waits for the thread to end before the memory goes.
        let thread = Thread { [unowned self] in work() }
        thread.stackSize = 256 << 10
        thread.start()
    }

    deinit {
        finishThread()
        if descriptor >= 0 { _ = Self.closeFile(descriptor) }
        for buffer in allBuffers { buffer.deallocate() }
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

    /// Appends `size` bytes that `body` writes in place (at most 4 KiB; in the buffer when it
    /// has room, else in a temporary that is then copied).
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

    /// Writes what is buffered and closes the file (not synced: the caller syncs before renaming).
    /// - Throws: `POSIXFileError` when a write or the close fails.
    func close() throws(POSIXFileError) {
        guard descriptor >= 0 else { return }
        if filled > 0 { try handOver() }
        finishThread()
        if let failure { throw failure }
        let result = Self.closeFile(descriptor)
        descriptor = -1
        if result != 0 { throw POSIXFileError(operation: "close", path: path, code: errno) }
    }

    /// Queues the current buffer for the writing thread and takes a free one.
    private func handOver() throws(POSIXFileError) {
        let offset = count - filled
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        pending.append((current, filled, offset))
        condition.broadcast()
        while free.isEmpty && failure == nil { condition.wait() }
        if let failure { throw failure }
        current = free.removeLast()
        filled = 0
    }

    private func finishThread() {
        condition.lock()
        isClosing = true
        condition.broadcast()
        while !isFinished { condition.wait() }
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while pending.isEmpty && !isClosing { condition.wait() }
            guard !pending.isEmpty else { break }
            let job = pending.removeFirst()
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
        if !isDirect { writeback.wrote(count, descriptor: descriptor) }
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

    private static func writeAll(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int, at offset: Int,
                                 path: String) throws(POSIXFileError) {
        var written = 0
        while written < count {
            let result = pwrite(descriptor, base + written, count - written, off_t(offset + written))
            if result < 0 {
                if errno == EINTR { continue }
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
    private static var directFlag: Int32? {
        #if os(Linux) && (arch(x86_64) || arch(i386))
        0o40000
        #elseif os(Linux) && (arch(arm64) || arch(arm))
        0o200000
        #else
        nil
        #endif
    }
}
