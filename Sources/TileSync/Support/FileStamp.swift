import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lstat` says identifies a file's version cheaply: size, modification time (ns) and inode.
struct FileStamp: Hashable, CustomStringConvertible {
    let size: Int
    let modificationTime: Int64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        size = Int(info.st_size)
        modificationTime = Self.modificationTime(of: info)
        inode = UInt64(info.st_ino)
    }

    /// The modification time of a `stat` result in ns since 1970.
    static func modificationTime(of info: stat) -> Int64 {
        #if canImport(Darwin)
        Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }

    init?(text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let size = Int(parts[0]), let time = Int64(parts[1]), let inode = UInt64(parts[2]) else { return nil }
        self.size = size
        self.modificationTime = time
        self.inode = inode
    }

    /// `size:mtime:inode`, as the sync state stores it.
    var description: String { "\(size):\(modificationTime):\(inode)" }

    /// Sets a file's access and modification times (ns since 1970), not following a link.
    static func setModificationTime(_ time: Int64, path: String) -> Bool {
        let stamp = timespec(tv_sec: time_t(time / 1_000_000_000), tv_nsec: Int(time % 1_000_000_000))
        var times = [stamp, stamp]
        return utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0
    }
}
