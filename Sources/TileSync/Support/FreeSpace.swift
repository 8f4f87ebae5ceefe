import Foundation

/// The free space of the file system a path is (or would be) on, from `statvfs` of the path or
/// its nearest existing parent folder.
struct FreeSpace {
    /// Bytes an unprivileged process may still write.
    let availableBytes: Int
    /// The file system's allocation unit: a file takes a whole number of these.
    let blockSize: Int

    /// Nil when no parent folder of `path` can be asked.
    init?(near path: String) {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var info = statvfs()
        while statvfs(url.path, &info) != 0 {
            guard url.path != "/" else { return nil }
            url = url.deletingLastPathComponent()
        }
        let unit = Int(info.f_frsize > 0 ? info.f_frsize : info.f_bsize)
        let (bytes, overflow) = Int(clamping: info.f_bavail).multipliedReportingOverflow(by: unit)
        availableBytes = overflow ? Int.max : bytes
        blockSize = max(unit, 512)
    }
}
