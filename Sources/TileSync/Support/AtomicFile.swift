import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system steps for all-or-nothing writes: a temporary name beside the destination,
/// flushing to disk, and renaming into place.
enum AtomicFile {
    /// Prefix of every temporary name TileSync creates, so leftovers of a killed run are
    /// recognizable (`.name.tilesync-<pid>-<random>.tmp`).
    static let temporaryMarker = ".tilesync-"

    /// A fresh temporary path in the destination's folder.
    static func temporaryPath(beside destination: String) -> String {
        let url = URL(fileURLWithPath: destination)
        let folder = url.deletingLastPathComponent().path
        let name = "." + url.lastPathComponent + temporaryMarker
            + "\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        return (folder as NSString).appendingPathComponent(name)
    }

    /// Removes temporary files and folders that TileSync runs killed before they could clean up:
    /// names in `folder` with `marker` in them, of the form `...tilesync-PID-RANDOM.tmp`, whose
    /// process no longer exists, or (Linux) is a process that started after the file was last
    /// written: its PID was reused (PIDs and thread IDs share a space that wraps at 32,768 by
    /// default). A live run's temporaries are left alone.
    static func removeStaleTemporaries(in folder: String, containing marker: String) {
        removeTemporaries(in: folder, containing: marker) { pid, path in pid != getpid() && !isOwner(pid, of: path) }
    }

    /// Removes stale temporaries of a destination: beside it, and inside it when it is a folder;
    /// and beside it the scratch files (`ScratchFile`) of dead processes, which a process killed
    /// between creating and unlinking one leaves there.
    static func removeStaleTemporaries(of destination: String) {
        removeTemporaries(of: destination, removeStaleTemporaries(in:containing:))
        removeStaleTemporaries(in: URL(fileURLWithPath: destination).deletingLastPathComponent().path, containing: scratchMarker)
    }

    /// Removes what killed TileSync runs left in the system's temporary folder (`TMPDIR`): a
    /// chain folded into one patch, a store indexed for lookups, an upload being staged.
    static func removeStaleSystemTemporaries() {
        removeStaleTemporaries(in: NSTemporaryDirectory(), containing: temporaryMarker)
    }

    /// What the name of every scratch file starts with (after its dot).
    static let scratchMarker = ".scratch-"

    /// The name of a scratch file for `purpose` in `folder`: `.scratch-PURPOSE.tilesync-PID-RANDOM.tmp`,
    /// so a run that finds one a dead process left (killed before unlinking it) can tell it apart
    /// from another destination's temporaries.
    static func scratchPath(in folder: String, purpose: String) -> String {
        (folder as NSString).appendingPathComponent("\(scratchMarker)\(purpose)\(temporaryMarker)\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    /// Removes the temporaries this process made for a destination, beside it and inside it (a
    /// run cut short by a second signal, whose own clean-up will not run).
    static func removeOwnTemporaries(of destination: String) {
        removeTemporaries(of: destination) { folder, marker in
            removeTemporaries(in: folder, containing: marker) { pid, _ in pid == getpid() }
        }
    }

    /// Removes every temporary this process made in `folder` (uploads staged in the system's
    /// temporary folder).
    static func removeOwnTemporaries(in folder: String) {
        removeTemporaries(in: folder, containing: temporaryMarker) { pid, _ in pid == getpid() }
    }

    private static func removeTemporaries(of destination: String, _ remove: (String, String) -> Void) {
        let url = URL(fileURLWithPath: destination)
        remove(url.deletingLastPathComponent().path, url.lastPathComponent)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            remove(destination, "tilesync")
        }
    }

    private static func removeTemporaries(in folder: String, containing marker: String, whose owner: (Int32, String) -> Bool) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".") && name.contains(marker) {
            guard let suffix = sqliteCompanionSuffixes.first(where: { name.hasSuffix(".tmp" + $0) }),
                  let range = name.range(of: temporaryMarker, options: .backwards) else { continue }
            let rest = name[range.upperBound...].dropLast(4 + suffix.count)
            guard let pidText = rest.split(separator: "-").first, let pid = Int32(pidText), pid > 0 else { continue }
            if owner(pid, folder + "/" + name) { remove(folder + "/" + name) }
        }
    }

    /// A temporary's own name, then the files SQLite keeps beside a database being written (its
    /// rollback journal, write-ahead log and shared-memory index), which a killed writer leaves.
    private static let sqliteCompanionSuffixes = ["", "-journal", "-wal", "-shm"]

    /// True when process `pid` exists and may have written `path`: on Linux, one that started
    /// more than 2 s after the file's last change is another process under a reused PID.
    static func isOwner(_ pid: Int32, of path: String) -> Bool {
        guard kill(pid, 0) == 0 || errno != ESRCH else { return false }
        #if os(Linux)
        var info = stat()
        if stat(path, &info) == 0, let started = ProcessStart.seconds(of: pid) {
            return started <= Double(info.st_mtim.tv_sec) + 2
        }
        #endif
        return true
    }

    /// Flushes a file's (or folder's) contents to stable storage.
    static func sync(path: String) throws(POSIXFileError) {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else { throw POSIXFileError(operation: "fsync", path: path, code: errno) }
    }

    /// Renames `source` to `destination`, replacing a file there, then flushes the folder entry.
    static func rename(_ source: String, to destination: String) throws(POSIXFileError) {
        guard Foundation.rename(source, destination) == 0 else {
            throw POSIXFileError(operation: "rename", path: destination, code: errno)
        }
        try? sync(path: URL(fileURLWithPath: destination).deletingLastPathComponent().path)
    }

    /// Removes a file or folder tree, ignoring a missing one.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// True when something (file, folder, link) exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
