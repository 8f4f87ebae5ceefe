import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private temporary file beside a destination, unlinked as soon as it is created (nothing
/// is left behind, whatever ends the process): appended through a 1 MiB buffer and read back
/// at offsets. For data too large to hold in memory (sort runs, blobs waiting for their place).
final class ScratchFile {
    private static let bufferSize = 1 << 20
    /// Names the file in errors.
    let path: String
    private let descriptor: Int32
    private var buffer: UnsafeMutableRawBufferPointer
    private var buffered = 0
    /// Bytes on disk (appended and flushed).
    private var flushed: UInt64 = 0

    /// Creates the file in `folder` and unlinks it at once.
    /// - Throws: `POSIXFileError` when it cannot be created.
    init(in folder: String, purpose: String) throws(POSIXFileError) {
        let path = AtomicFile.scratchPath(in: folder, purpose: purpose)
        let descriptor = retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "create a temporary file", path: path, code: errno) }
        unlink(path)
        self.path = path
        self.descriptor = descriptor
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    /// Bytes appended so far.
    var count: UInt64 { flushed + UInt64(buffered) }

    /// Appends bytes.
    /// - Throws: `POSIXFileError` (disk full, I/O error).
    func append(_ bytes: UnsafeRawBufferPointer) throws(POSIXFileError) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if bytes.count > buffer.count - buffered {
            try flush()
            if bytes.count >= buffer.count {
                try writeFully(source, count: bytes.count, at: flushed)
                flushed += UInt64(bytes.count)
                return
            }
        }
        (buffer.baseAddress! + buffered).copyMemory(from: source, byteCount: bytes.count)
        buffered += bytes.count
    }

    /// Appends bytes.
    func append(_ bytes: [UInt8]) throws(POSIXFileError) {
        var failure: POSIXFileError?
        bytes.withUnsafeBytes { raw in
            do throws(POSIXFileError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes out the buffer.
    func flush() throws(POSIXFileError) {
        guard buffered > 0, let base = buffer.baseAddress else { return }
        try writeFully(base, count: buffered, at: flushed)
        flushed += UInt64(buffered)
        buffered = 0
    }

    /// Reads `count` bytes from `offset` (flushing first when they are still buffered).
    /// - Throws: `POSIXFileError`.
    func read(at offset: UInt64, count: Int, into target: UnsafeMutableRawPointer) throws(POSIXFileError) {
        if offset + UInt64(count) > flushed { try flush() }
        try PositionalIO.read(descriptor, at: offset, count: count, into: target, path: path)
    }

    /// Writes bytes at an offset of a file that is only written this way (not appended).
    /// - Throws: `POSIXFileError`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(POSIXFileError) {
        guard let source = bytes.baseAddress else { return }
        try writeFully(source, count: bytes.count, at: offset)
    }

    /// Forgets everything appended (the file is emptied).
    func removeAll() throws(POSIXFileError) {
        buffered = 0
        flushed = 0
        guard ftruncate(descriptor, 0) == 0 else { throw POSIXFileError(operation: "truncate a temporary file", path: path, code: errno) }
    }

    private func writeFully(_ source: UnsafeRawPointer, count: Int, at offset: UInt64) throws(POSIXFileError) {
        try PositionalIO.write(descriptor, at: offset, count: count, from: source, path: path)
    }
}
