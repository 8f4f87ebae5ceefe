import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes with plain POSIX calls (no Foundation buffering, no link
/// following on read).
enum FileBytes {
    /// The largest tile TileSync reads into memory, in bytes (64 MiB).
    static let maxTileSize = 64 << 20

    /// How a file is opened for reading: never through a link at its own name, and without
    /// waiting (a named pipe or a device where a file belongs is refused, not waited on).
    static let readingFlags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK

    /// Reads a regular file, refusing symbolic links and files over `limit` bytes.
    static func read(_ path: String, limit: Int = maxTileSize) throws(POSIXFileError) -> Data {
        let descriptor = retryingOnInterrupt { open(path, readingFlags) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        return try read(descriptor, path: path, limit: limit).data
    }

    /// Reads the regular file `name` of the open folder `folder` (no path lookup from the root),
    /// with its modification time (ns since 1970); `path` names it in errors. Refuses symbolic
    /// links and files over `limit` bytes.
    static func read(in folder: Int32, name: [UInt8], path: @autoclosure () -> String,
                     limit: Int = maxTileSize) throws(POSIXFileError) -> (data: Data, modificationTime: Int64) {
        let descriptor = name.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: chars.count + 1) { terminated -> Int32 in
                    guard let base = terminated.baseAddress else { return -1 }
                    for index in chars.indices { terminated[index] = chars[index] }
                    terminated[chars.count] = 0
                    return retryingOnInterrupt { openat(folder, base, readingFlags) }
                }
            }
        }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path(), code: errno) }
        defer { close(descriptor) }
        return try read(descriptor, path: path(), limit: limit)
    }

    static func read(_ descriptor: Int32, path: @autoclosure () -> String,
                     limit: Int) throws(POSIXFileError) -> (data: Data, modificationTime: Int64) {
        let info = try regularFileStatus(descriptor, path: path(), limit: limit)
        return (try contents(of: descriptor, size: Int(info.st_size), path: path()), FileTime.modificationTime(of: info))
    }

    /// The status of the open `descriptor`, which must be a regular file of at most `limit` bytes.
    /// - Throws: `POSIXFileError` (`EINVAL` for another kind of file, `EFBIG` over the limit).
    static func regularFileStatus(_ descriptor: Int32, path: @autoclosure () -> String, limit: Int) throws(POSIXFileError) -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXFileError(operation: "stat", path: path(), code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw POSIXFileError(operation: "read", path: path(), code: EINVAL, reason: "not a regular file (\(fileType(info.st_mode)))")
        }
        guard info.st_size <= limit else {
            throw POSIXFileError(operation: "read", path: path(), code: EFBIG, reason: "\(info.st_size) bytes, over the limit of \(limit)")
        }
        return info
    }

    private static func fileType(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "of another kind"
        }
    }

    /// Up to `size` bytes of the open file from its start (fewer when it ends sooner).
    static func contents(of descriptor: Int32, size: Int, path: @autoclosure () -> String) throws(POSIXFileError) -> Data {
        if size <= 0 { return Data() }
        guard let buffer = malloc(size) else { throw POSIXFileError(operation: "read", path: path(), code: ENOMEM) }
        var filled = 0
        while filled < size {
            let count = retryingOnInterrupt { pread(descriptor, buffer + filled, size - filled, off_t(filled)) }
            if count < 0 {
                let code = errno
                free(buffer)
                throw POSIXFileError(operation: "read", path: path(), code: code)
            }
            if count == 0 { break }
            filled += count
        }
        // Read straight into the buffer the Data then owns: no zero-filling, no copy.
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }

    /// Creates a file with mode 0644 and writes all of `data`. An existing file is unlinked
    /// first, never truncated, so other hard links to it keep their content.
    static func write(_ data: Data, to path: String) throws(POSIXFileError) {
        try write(data, in: AT_FDCWD, name: path, path: path)
    }

    /// Like `write(_:to:)` for the file `name` of the open folder `folder` (no path lookup from
    /// the root); `path` names it in errors. With `modificationTime` (ns since 1970), the file's
    /// access and modification times are set to it.
    static func write(_ data: Data, in folder: Int32, name: String, path: @autoclosure () -> String,
                      modificationTime: Int64? = nil) throws(POSIXFileError) {
        let create = { retryingOnInterrupt { openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) } }
        var descriptor = create()
        if descriptor < 0 && errno == EEXIST {
            unlinkat(folder, name, 0)
            descriptor = create()
        }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "create", path: path(), code: errno) }
        var failure: POSIXFileError?
        data.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count, let base = buffer.baseAddress {
                let count = retryingOnInterrupt { Foundation.write(descriptor, base + written, buffer.count - written) }
                if count < 0 {
                    failure = POSIXFileError(operation: "write", path: path(), code: errno)
                    return
                }
                written += count
            }
        }
        if failure == nil, let modificationTime {
            let stamp = FileTime.timeSpec(nanoseconds: modificationTime)
            var times = (stamp, stamp)
            let result = withUnsafePointer(to: &times) { pointer in
                pointer.withMemoryRebound(to: timespec.self, capacity: 2) { times in retryingOnInterrupt { futimens(descriptor, times) } }
            }
            if result != 0 { failure = POSIXFileError(operation: "set the time of", path: path(), code: errno) }
        }
        if close(descriptor) != 0, failure == nil {
            failure = POSIXFileError(operation: "close", path: path(), code: errno)
        }
        if let failure { throw failure }
    }

    /// Size in bytes of a file (not following links), or nil.
    static func size(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }
}
