import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc malloc settings for the tool, each left to the environment when it sets its own
/// (`MALLOC_ARENA_MAX`, `MALLOC_TRIM_THRESHOLD_`, `MALLOC_MMAP_THRESHOLD_`).
/// (`mallopt` is looked up at run time: `malloc.h` is not part of the Glibc module.)
///
/// - One arena per core (at least two): glibc gives threads that allocate arenas of their own
///   (up to eight per core), and an arena keeps the pages it freed, so a run with many threads
///   (listing and HTTP threads of an `s3://` sync) would hold more memory than it uses.
/// - Large blocks from the heap, kept for reuse: raster codecs allocate and free buffers of a
///   few MB for every tile (libwebp's lossless encoder); with glibc's defaults each went back to
///   the kernel and came back zeroed, and half the CPU of a lossless re-encoding was spent in
///   the kernel. Blocks up to 16 MB come from the heap and up to 32 MB of free heap top is kept.
enum MallocSettings {
    private static let arenaMaxParameter: Int32 = -8
    private static let trimThresholdParameter: Int32 = -1
    private static let mmapThresholdParameter: Int32 = -3

    static func apply() {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let environment = ProcessInfo.processInfo.environment
        if environment["MALLOC_ARENA_MAX"] == nil {
            _ = mallopt(arenaMaxParameter, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        }
        if environment["MALLOC_TRIM_THRESHOLD_"] == nil { _ = mallopt(trimThresholdParameter, 32 << 20) }
        if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = mallopt(mmapThresholdParameter, 16 << 20) }
        #endif
    }
}
