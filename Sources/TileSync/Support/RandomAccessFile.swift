import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read at offsets (`pread`), for archives read by index (PMTiles) and scratch files.
/// Safe to read from several threads at once.
final class RandomAccessFile: @unchecked Sendable {
    /// The file, for error messages.
    let path: String
    /// Its size in bytes when opened.
    let size: UInt64
    private let descriptor: Int32

    /// Opens a file for reading (following no symbolic link at the last component when
    /// `followsLinks` is false).
    /// - Throws: `POSIXFileError` when it cannot be opened or is not a regular file.
    /// - Parameter direct: read around the page cache (`O_DIRECT` where the platform has it):
    ///   offsets, counts and buffers must then be multiples of `BufferWriteQueue.directAlignment`.
    init(path: String, followsLinks: Bool = true, direct: Bool = false) throws(POSIXFileError) {
        self.path = path
        let flags = O_RDONLY | O_CLOEXEC | (followsLinks ? 0 : O_NOFOLLOW)
        var descriptor: Int32 = -1
        if direct, let directFlag = BufferWriteQueue.directFlag {
            // A file system without direct I/O (tmpfs) refuses the flag: read through the cache there.
            descriptor = retryingOnInterrupt { open(path, flags | directFlag) }
        }
        if descriptor < 0 { descriptor = retryingOnInterrupt { open(path, flags) } }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXFileError(operation: "stat", path: path, code: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw POSIXFileError(operation: "open", path: path, code: (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        self.descriptor = descriptor
        size = UInt64(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes from `offset` into `buffer`, fewer only at the end of the file.
    /// - Returns: the bytes read.
    /// - Throws: `POSIXFileError` on a read error.
    func readAvailable(at offset: UInt64, count: Int, into buffer: UnsafeMutableRawPointer) throws(POSIXFileError) -> Int {
        try PositionalIO.readAvailable(descriptor, at: offset, count: count, into: buffer, path: path)
    }

    /// `count` bytes from `offset` into `buffer` (which must hold them).
    /// - Throws: `POSIXFileError` on a read error, or `EIO`-coded when the file ends first.
    func read(at offset: UInt64, count: Int, into buffer: UnsafeMutableRawPointer) throws(POSIXFileError) {
        try PositionalIO.read(descriptor, at: offset, count: count, into: buffer, path: path)
    }

    /// `count` bytes from `offset`.
    /// - Throws: as `read(at:count:into:)`.
    func bytes(at offset: UInt64, count: Int) throws(POSIXFileError) -> [UInt8] {
        [UInt8](try data(at: offset, count: count))
    }

    /// `count` bytes from `offset`, as `Data`.
    /// - Throws: as `read(at:count:into:)`.
    func data(at offset: UInt64, count: Int) throws(POSIXFileError) -> Data {
        var result = Data(count: count)
        var failure: POSIXFileError?
        result.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            do throws(POSIXFileError) { try read(at: offset, count: count, into: base) } catch { failure = error }
        }
        if let failure { throw failure }
        return result
    }
}
