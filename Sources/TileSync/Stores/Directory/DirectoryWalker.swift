import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lazy depth-first walk of a folder tree with `opendir`/`readdir`, one directory listing in
/// memory per level. Symbolic links are reported, never followed. Entries of a directory come sorted: numbers numerically, then other names.
final class DirectoryWalker {
    enum EntryKind { case file, directory, symbolicLink, other }

    struct Entry {
        /// Path relative to the root, `/`-separated.
        let relativePath: String
        let name: [UInt8]
        let kind: EntryKind
        let depth: Int
        /// Size and modification time (ns), when the walk stats files.
        let stamp: (size: Int, modificationTime: Int64)?
    }

    private struct Listed {
        let name: [UInt8]
        let kind: EntryKind
        let stamp: (size: Int, modificationTime: Int64)?
    }

    private struct Level {
        let relativePath: String
        let depth: Int
        var entries: [Listed]
        var index = 0
    }

    let root: String
    private let statsFiles: Bool
    private var stack: [Level] = []

    /// - Parameter statsFiles: `fstatat` each regular file while listing its folder (cheaper
    ///   than a path lookup per file later).
    /// - Throws: `POSIXFileError` when the root cannot be listed.
    init(root: String, statsFiles: Bool = false) throws(POSIXFileError) {
        self.root = root
        self.statsFiles = statsFiles
        stack = [Level(relativePath: "", depth: 0, entries: try Self.list(root, statsFiles: statsFiles))]
    }

    /// The next entry, or nil when the walk is over. Call `descend(into:)` for a directory entry
    /// to walk its contents next.
    func next() -> Entry? {
        while var level = stack.popLast() {
            guard level.index < level.entries.count else { continue }
            let listed = level.entries[level.index]
            level.index += 1
            stack.append(level)
            let path = level.relativePath.isEmpty
                ? String(decoding: listed.name, as: UTF8.self)
                : level.relativePath + "/" + String(decoding: listed.name, as: UTF8.self)
            return Entry(relativePath: path, name: listed.name, kind: listed.kind, depth: level.depth, stamp: listed.stamp)
        }
        return nil
    }

    /// Lists a directory entry so that the walk continues inside it.
    /// - Throws: `POSIXFileError` when it cannot be listed.
    func descend(into entry: Entry) throws(POSIXFileError) {
        let entries = try Self.list(root + "/" + entry.relativePath, statsFiles: statsFiles)
        stack.append(Level(relativePath: entry.relativePath, depth: entry.depth + 1, entries: entries))
    }

    private static func list(_ path: String, statsFiles: Bool) throws(POSIXFileError) -> [Listed] {
        guard let directory = opendir(path) else {
            throw POSIXFileError(operation: "opendir", path: path, code: errno)
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [Listed] = []
        while let pointer = readdir(directory) {
            let name = withUnsafePointer(to: &pointer.pointee.d_name) { raw in
                raw.withMemoryRebound(to: UInt8.self, capacity: 256) { Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)))) }
            }
            guard !name.isEmpty, name != [46], name != [46, 46] else { continue }
            var kind: EntryKind
            switch Int32(pointer.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = lstatKind(path + "/" + String(decoding: name, as: UTF8.self))
            default: kind = .other
            }
            var stamp: (size: Int, modificationTime: Int64)?
            if statsFiles, kind == .file {
                var info = stat()
                let found = name.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        var terminated = Array(chars)
                        terminated.append(0)
                        return fstatat(descriptor, terminated, &info, AT_SYMLINK_NOFOLLOW) == 0
                    }
                }
                if found { stamp = (Int(info.st_size), FileStamp.modificationTime(of: info)) }
            }
            entries.append(Listed(name: name, kind: kind, stamp: stamp))
        }
        entries.sort { compareNames($0.name, $1.name) }
        return entries
    }

    private static func lstatKind(_ path: String) -> EntryKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Names that start with digits first, by that number's value (`3.png` before `12.png`),
    /// then by the rest bytewise; other names after them, bytewise.
    static func compareNames(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let aDigits = a.prefix { (48...57).contains($0) }
        let bDigits = b.prefix { (48...57).contains($0) }
        if aDigits.isEmpty != bDigits.isEmpty { return !aDigits.isEmpty }
        if !aDigits.isEmpty {
            let aValue = aDigits.drop { $0 == 48 }, bValue = bDigits.drop { $0 == 48 }
            if aValue.count != bValue.count { return aValue.count < bValue.count }
            if !aValue.elementsEqual(bValue) { return aValue.lexicographicallyPrecedes(bValue) }
            if aDigits.count != bDigits.count { return aDigits.count < bDigits.count }
        }
        return a[aDigits.count...].lexicographicallyPrecedes(b[bDigits.count...])
    }
}
