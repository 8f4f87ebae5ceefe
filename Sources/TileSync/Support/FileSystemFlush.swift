#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Flushes everything written to one file system to stable storage with a single call: Linux's
/// `syncfs`, cheaper than an `fsync` per file when many small files must be durable before a
/// commit (a sync's staged tiles). Not available elsewhere: callers then `fsync` each file.
enum FileSystemFlush {
    /// Flushes the file system holding the open file or folder `descriptor`.
    /// - Returns: false when `syncfs` is not available or failed (`errno` says why).
    static func flush(containing descriptor: Int32) -> Bool {
        #if os(Linux)
        guard let syncFileSystem = Self.syncFileSystem else { return false }
        return retryingOnInterrupt { syncFileSystem(descriptor) } == 0
        #else
        return false
        #endif
    }

    #if os(Linux)
    private typealias SyncFileSystem = @convention(c) (Int32) -> Int32
    /// glibc's `syncfs`, which the Glibc module hides behind `_GNU_SOURCE`.
    private static let syncFileSystem: SyncFileSystem? = dlsym(nil, "syncfs").map { unsafeBitCast($0, to: SyncFileSystem.self) }
    #endif
}
