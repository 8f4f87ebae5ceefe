#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole reads and writes at an offset (`pread`/`pwrite`), retried on EINTR and on short counts.
enum PositionalIO {
    /// Reads exactly `count` bytes at `offset`.
    /// - Throws: `POSIXFileError` naming `path` on an error, or `EIO`-coded when the file ends first.
    static func read(_ descriptor: Int32, at offset: UInt64, count: Int, into target: UnsafeMutableRawPointer,
                     path: String) throws(POSIXFileError) {
        guard try readAvailable(descriptor, at: offset, count: count, into: target, path: path) == count else {
            throw POSIXFileError(operation: "read (the file ends early)", path: path, code: EIO)
        }
    }

    /// Reads up to `count` bytes at `offset`, fewer only where the file ends.
    /// - Returns: the bytes read.
    /// - Throws: `POSIXFileError` naming `path`.
    static func readAvailable(_ descriptor: Int32, at offset: UInt64, count: Int, into target: UnsafeMutableRawPointer,
                              path: String) throws(POSIXFileError) -> Int {
        var done = 0
        while done < count {
            let got = pread(descriptor, target + done, count - done, off_t(offset) + off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                throw POSIXFileError(operation: "read", path: path, code: errno)
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Writes all `count` bytes at `offset`.
    /// - Throws: `POSIXFileError` naming `path`.
    static func write(_ descriptor: Int32, at offset: UInt64, count: Int, from source: UnsafeRawPointer,
                      path: String) throws(POSIXFileError) {
        var done = 0
        while done < count {
            let wrote = pwrite(descriptor, source + done, count - done, off_t(offset) + off_t(done))
            if wrote < 0 {
                if errno == EINTR { continue }
                throw POSIXFileError(operation: "write", path: path, code: errno)
            }
            done += wrote
        }
    }
}
