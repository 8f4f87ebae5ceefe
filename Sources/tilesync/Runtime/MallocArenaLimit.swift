import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc gives threads that allocate arenas of their own (up to eight per core), and an arena
/// keeps the pages it freed, so a run with many threads (listing and HTTP threads of an `s3://`
/// sync) holds more memory than it uses. One arena per core (at least two) bounds that. A
/// `MALLOC_ARENA_MAX` in the environment is left to win.
/// (`mallopt` is looked up at run time: `malloc.h` is not part of the Glibc module.)
enum MallocArenaLimit {
    /// glibc's `M_ARENA_MAX` parameter of `mallopt`.
    private static let arenaMaxParameter: Int32 = -8

    static func apply() {
        #if canImport(Glibc)
        guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil,
              let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(arenaMaxParameter, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
    }
}
