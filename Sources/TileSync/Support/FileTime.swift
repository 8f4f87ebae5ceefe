#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File times as TileSync keeps them, nanoseconds since 1970 (negative before), and their
/// POSIX forms.
enum FileTime {
    /// The modification time of a `stat` result in ns since 1970.
    static func modificationTime(of info: stat) -> Int64 {
        #if canImport(Darwin)
        Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// A time in ns since 1970 as a `timespec`: seconds rounded down, so the nanoseconds stay in
    /// 0..<1e9 as `futimens` requires (also for times before 1970).
    static func timeSpec(nanoseconds: Int64) -> timespec {
        let (seconds, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return rest < 0
            ? timespec(tv_sec: time_t(seconds - 1), tv_nsec: Int(rest + 1_000_000_000))
            : timespec(tv_sec: time_t(seconds), tv_nsec: Int(rest))
    }

    /// Sets a file's access and modification times (ns since 1970), not following a link.
    static func setModificationTime(_ time: Int64, path: String) -> Bool {
        var times = [timeSpec(nanoseconds: time), timeSpec(nanoseconds: time)]
        return retryingOnInterrupt { utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) } == 0
    }
}
