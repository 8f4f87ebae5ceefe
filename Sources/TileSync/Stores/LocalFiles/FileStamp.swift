#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lstat` says identifies a file's version cheaply: size, modification time (ns) and
/// inode. A file-backed store's `versionStamp`.
struct FileStamp: Hashable, CustomStringConvertible {
    let size: Int
    let modificationTime: Int64
    let inode: UInt64

    /// - Parameter followingLinks: the file a symbolic link points to (`stat`), not the link (`lstat`).
    init?(path: String, followingLinks: Bool = false) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        size = Int(info.st_size)
        modificationTime = FileTime.modificationTime(of: info)
        inode = UInt64(info.st_ino)
    }

    /// `size:mtime:inode`, as the sync state stores it.
    var description: String { "\(size):\(modificationTime):\(inode)" }
}
