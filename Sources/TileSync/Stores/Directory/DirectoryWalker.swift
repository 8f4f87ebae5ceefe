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
        /// Path of the folder holding the entry, relative to the root ("" at the root).
        let folderPath: String
        let name: [UInt8]
        let kind: EntryKind
        let depth: Int
        /// Size and modification time (ns), when the walk stats files.
        let stamp: (size: Int, modificationTime: Int64)?

        /// Path relative to the root, `/`-separated (built on demand: most entries never need it).
        var relativePath: String {
            let name = String(decoding: self.name, as: UTF8.self)
            return folderPath.isEmpty ? name : folderPath + "/" + name
        }
    }

    private struct Listed {
        let name: [UInt8]
        let kind: EntryKind
        let stamp: (size: Int, modificationTime: Int64)?
    }

    private struct Level {
        let relativePath: String
        let depth: Int
        /// The open folder, for `openat`/`fstatat` relative to it; closed when the level ends.
        let descriptor: Int32
        var entries: [Listed]
        var index = 0
    }

    let root: String
    private let statsFiles: Bool
    private let reversedDepth: Int?
    private var stack: [Level] = []

    /// - Parameter statsFiles: `fstatat` each regular file while listing its folder (cheaper
    ///   than a path lookup per file later).
    /// - Throws: `POSIXFileError` when the root cannot be listed.
    /// - Parameter reversedDepth: the depth whose folders are walked in reverse order.
    init(root: String, statsFiles: Bool = false, reversedDepth: Int? = nil) throws(POSIXFileError) {
        self.root = root
        self.statsFiles = statsFiles
        self.reversedDepth = reversedDepth
        let descriptor = retryingOnInterrupt { open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "opendir", path: root, code: errno) }
        do {
            var entries = try Self.list(descriptor, path: root, statsFiles: statsFiles)
            if reversedDepth == 0 { entries.reverse() }
            stack = [Level(relativePath: "", depth: 0, descriptor: descriptor, entries: entries)]
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        for level in stack { close(level.descriptor) }
    }

    /// The open folder holding the entry `next()` returned last (valid until the next call to
    /// `next()` or `descend(into:)`), for reading the entry with `openat`.
    var currentFolderDescriptor: Int32 { stack.last?.descriptor ?? -1 }

    /// The next entry, or nil when the walk is over. Call `descend(into:)` for a directory entry
    /// to walk its contents next.
    func next() -> Entry? {
        while let top = stack.indices.last {
            let index = stack[top].index
            guard index < stack[top].entries.count else {
                close(stack[top].descriptor)
                stack.removeLast()
                continue
            }
            stack[top].index = index + 1
            let listed = stack[top].entries[index]
            return Entry(folderPath: stack[top].relativePath, name: listed.name, kind: listed.kind,
                         depth: stack[top].depth, stamp: listed.stamp)
        }
        return nil
    }

    /// Lists a directory entry so that the walk continues inside it.
    /// - Throws: `POSIXFileError` when it cannot be listed.
    func descend(into entry: Entry) throws(POSIXFileError) {
        let relativePath = entry.relativePath
        let path = root + "/" + relativePath
        let descriptor = entry.name.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var terminated = Array(chars)
                terminated.append(0)
                return retryingOnInterrupt { openat(currentFolderDescriptor, terminated, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            }
        }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "opendir", path: path, code: errno) }
        do {
            var entries = try Self.list(descriptor, path: path, statsFiles: statsFiles)
            if reversedDepth == entry.depth + 1 { entries.reverse() }
            stack.append(Level(relativePath: relativePath, depth: entry.depth + 1, descriptor: descriptor, entries: entries))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Lists the open folder `folder` (at `path`, for messages) through a duplicate descriptor.
    private static func list(_ folder: Int32, path: String, statsFiles: Bool) throws(POSIXFileError) -> [Listed] {
        let listing = dup(folder)
        guard listing >= 0, let directory = fdopendir(listing) else {
            let code = errno
            if listing >= 0 { close(listing) }
            throw POSIXFileError(operation: "opendir", path: path, code: code)
        }
        defer { closedir(directory) }
        let descriptor = folder
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
            case Int32(DT_UNKNOWN): kind = lstatKind(descriptor, name)
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
                if found { stamp = (Int(info.st_size), FileTime.modificationTime(of: info)) }
            }
            entries.append(Listed(name: name, kind: kind, stamp: stamp))
        }
        let keys = entries.map { NameSortKey($0.name) }
        let order = keys.indices.sorted { a, b in
            let left = keys[a], right = keys[b]
            if left.rank != right.rank { return left.rank < right.rank }
            if left.rank == 0 && left.value != right.value { return left.value < right.value }
            return compareNames(entries[a].name, entries[b].name)
        }
        return order.map { entries[$0] }
    }

    private static func lstatKind(_ folder: Int32, _ name: [UInt8]) -> EntryKind {
        var info = stat()
        let found = name.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var terminated = Array(chars)
                terminated.append(0)
                return fstatat(folder, terminated, &info, AT_SYMLINK_NOFOLLOW) == 0
            }
        }
        guard found else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// What `compareNames` looks at first, computed once per name: rank 0 for names that start
    /// with a number of at most 18 significant digits (by its value), 1 for longer numbers, 2 for other names.
    private struct NameSortKey {
        let rank: Int
        let value: UInt64

        init(_ name: [UInt8]) {
            var value: UInt64 = 0, digits = 0, significant = 0
            for byte in name {
                guard (48...57).contains(byte) else { break }
                digits += 1
                if significant > 0 || byte != 48 { significant += 1 }
                if significant <= 18 { value = value * 10 + UInt64(byte - 48) }
            }
            rank = digits == 0 ? 2 : significant <= 18 ? 0 : 1
            self.value = value
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
