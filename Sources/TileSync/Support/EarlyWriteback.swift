#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the kernel to start writing a file's dirty pages every 16 MiB written, so the `fsync`
/// before the rename into place finds little left to do and the disk works while TileSync does.
/// Linux `sync_file_range(SYNC_FILE_RANGE_WRITE)`, which does not wait; nothing elsewhere.
struct EarlyWriteback {
    static let interval = 16 << 20
    private var pending = 0

    /// Counts `count` bytes written through `descriptor` (any descriptor of the file).
    mutating func wrote(_ count: Int, descriptor: Int32) {
        pending += count
        guard pending >= Self.interval else { return }
        pending = 0
        #if os(Linux)
        if let startWriteback = Self.syncFileRange { _ = startWriteback(descriptor, 0, 0, 2) }
        #endif
    }

    #if os(Linux)
    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
    /// glibc's `sync_file_range`, which the Glibc module hides behind `_GNU_SOURCE`
    /// (flag 2 is `SYNC_FILE_RANGE_WRITE`).
    private static let syncFileRange: SyncFileRange? = dlsym(nil, "sync_file_range")
        .map { unsafeBitCast($0, to: SyncFileRange.self) }
    #endif
}
