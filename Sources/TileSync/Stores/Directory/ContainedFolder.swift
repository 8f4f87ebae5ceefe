import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(CTileSyncFileShims)
import CTileSyncFileShims
#endif

/// A folder tree whose paths are resolved one component at a time from the root's open
/// descriptor with `O_NOFOLLOW`, so that a symbolic link inside the tree never leads out of it:
/// reads and removals through a link find nothing, and a link where a folder must be created is
/// replaced by a real folder, as rsync does. The root itself may be a link (the user named it).
/// On Linux a file is read with one `openat2` (`RESOLVE_BENEATH`, `RESOLVE_NO_SYMLINKS`) that
/// keeps the same rule, falling back to the walk where the kernel lacks it or a link is met.
///
/// The folder of the last path resolved stays open, since tiles come column by column.
final class ContainedFolder {
    /// The root, as messages name it.
    let root: String
    let descriptor: Int32
    private var lastFolder: (components: [Substring], descriptor: Int32)?
    /// False once `openat2` proved missing (an old kernel, a sandbox that forbids it).
    private static let opensBeneath = Atomic<Bool>(true)

    /// Opens the root folder.
    /// - Throws: `POSIXFileError` when it is missing or not a folder.
    init(root: String) throws(POSIXFileError) {
        self.root = root
        descriptor = retryingOnInterrupt { open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: root, code: errno) }
    }

    deinit {
        if let lastFolder { close(lastFolder.descriptor) }
        close(descriptor)
    }

    /// The open folder holding `relative` and the file's name; nil when a folder on the way is
    /// missing or not a real folder (a link, a file) and `creating` is false.
    /// - Parameter creating: make missing folders, replacing links and files in their place.
    /// - Throws: `POSIXFileError` when a folder cannot be opened or made.
    func parent(of relative: String, creating: Bool) throws(POSIXFileError) -> (folder: Int32, name: String)? {
        var components = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard let name = components.popLast() else { return nil }
        guard !components.isEmpty else { return (descriptor, String(name)) }
        if let lastFolder, lastFolder.components == components { return (lastFolder.descriptor, String(name)) }
        var current = descriptor
        for (index, component) in components.enumerated() {
            let path = { self.root + "/" + components[...index].joined(separator: "/") }
            var next = openFolder(component, in: current)
            if next < 0 && creating && (errno == ENOENT || errno == ELOOP || errno == ENOTDIR) {
                if errno != ENOENT { unlinkat(current, String(component), 0) }
                guard mkdirat(current, String(component), 0o755) == 0 || errno == EEXIST else {
                    let code = errno
                    if current != descriptor { close(current) }
                    throw POSIXFileError(operation: "mkdir", path: path(), code: code)
                }
                next = openFolder(component, in: current)
            }
            let code = errno
            if current != descriptor { close(current) }
            guard next >= 0 else {
                if !creating && (code == ENOENT || code == ELOOP || code == ENOTDIR) { return nil }
                throw POSIXFileError(operation: "open", path: path(), code: code)
            }
            current = next
        }
        if let lastFolder { close(lastFolder.descriptor) }
        lastFolder = (components, current)
        return (current, String(name))
    }

    /// True when the tree holds an entry (file, link, folder) at `relative`, not looking
    /// through links on the way.
    func hasEntry(at relative: String) -> Bool {
        guard let (folder, name) = try? parent(of: relative, creating: false) else { return false }
        var info = stat()
        return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// The regular file at `relative` (UTF-8 bytes ending in a NUL, as a reader builds them in a
    /// buffer it reuses) opened for reading, with its status; nil when there is none (or a link
    /// is on the way). The caller closes the descriptor.
    /// - Throws: `POSIXFileError` when it exists but cannot be opened, is not a regular file
    ///   (a link or a folder at the file's own name is `ELOOP`/`EINVAL`) or is over `limit` bytes.
    func openFile(_ relative: [UInt8], limit: Int) throws(POSIXFileError) -> (descriptor: Int32, status: stat)? {
        guard let descriptor = try openDescriptor(relative) else { return nil }
        do {
            return (descriptor, try FileBytes.regularFileStatus(descriptor, path: root + "/" + Self.text(relative), limit: limit))
        } catch {
            close(descriptor)
            throw error
        }
    }

    private func openDescriptor(_ relative: [UInt8]) throws(POSIXFileError) -> Int32? {
        #if canImport(CTileSyncFileShims)
        if Self.opensBeneath.load(ordering: .relaxed) {
            let file = relative.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { ctilesync_open_beneath(descriptor, $0.baseAddress) }
            }
            if file >= 0 { return file }
            switch errno {
            case ENOENT, ENOTDIR: return nil
            case ENOSYS, EPERM: Self.opensBeneath.store(false, ordering: .relaxed)
            default: break
            }
        }
        #endif
        let path = Self.text(relative)
        guard let (folder, name) = try parent(of: path, creating: false) else { return nil }
        let file = retryingOnInterrupt { openat(folder, name, FileBytes.readingFlags) }
        guard file >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw POSIXFileError(operation: "open", path: root + "/" + path, code: code)
        }
        return file
    }

    /// The text of a NUL-terminated path.
    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.last == 0 ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }

    /// Removes the file (or link) at `relative`; nothing when there is none or the way to it
    /// leaves the tree.
    func removeFile(_ relative: String) {
        guard let (folder, name) = try? parent(of: relative, creating: false) else { return }
        unlinkat(folder, name, 0)
    }

    /// Moves the file `name` of the open folder `source` to `relative`, making the folders on
    /// the way; a file or link already there is replaced.
    /// - Throws: `POSIXFileError` when a folder cannot be made or the rename fails.
    func moveIn(_ name: String, from source: Int32, to relative: String) throws(POSIXFileError) {
        guard let (folder, target) = try parent(of: relative, creating: true) else {
            throw POSIXFileError(operation: "rename", path: root + "/" + relative, code: EINVAL)
        }
        guard renameat(source, name, folder, target) == 0 else {
            throw POSIXFileError(operation: "rename", path: root + "/" + relative, code: errno)
        }
    }

    private func openFolder(_ component: Substring, in folder: Int32) -> Int32 {
        retryingOnInterrupt { openat(folder, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
    }
}
