import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Changes a folder tree in place so that an interrupted sync leaves it as it was or, at the
/// next run, fully synced.
///
/// New files are written to `.tilesync-staging/` inside the folder and each change is appended
/// to a journal there (`P staged final mtime` to put, `D final` to delete). `finish()` flushes the
/// journal and renames it to `.tilesync-journal`: that rename is the commit. The journal is then
/// carried out (renames into place, deletions) and removed. `recover(root:)`, run before every
/// sync, completes a committed journal (roll forward) or discards an uncommitted staging folder
/// (roll back). Readers do not see staged files: the walk skips both names.
///
/// Errors: `.io` (disk full, permissions), naming the file.
public final class DirectoryUpdater: TileUpdater {
    /// The folder.
    public let location: TileStoreLocation
    /// Where tiles go in it.
    public let template: PathTemplate
    private let fileExtension: String
    private let staging: String
    private var journal: UnsafeMutablePointer<FILE>?
    private var counter = 0
    private var isFinished = false

    static let journalName = ".tilesync-journal"

    /// Prepares to change the folder at `location` (which must exist).
    /// - Parameter fileExtension: the `{ext}` of files it puts.
    public init(location: TileStoreLocation, template: PathTemplate, fileExtension: String) throws(TileStoreError) {
        self.location = location
        self.template = template
        self.fileExtension = fileExtension
        staging = location.path + "/" + DirectoryTileWalk.stagingFolder
        try Self.recover(root: location.path)
    }

    deinit {
        if !isFinished { abort() }
    }

    /// Completes a committed journal or discards an uncommitted staging folder.
    /// - Throws: `.io` when a committed change cannot be carried out.
    public static func recover(root: String) throws(TileStoreError) {
        let journalPath = root + "/" + journalName
        if AtomicFile.exists(journalPath) {
            try apply(journal: journalPath, root: root)
        }
        AtomicFile.remove(root + "/" + DirectoryTileWalk.stagingFolder)
    }

    public func begin(metadata: TileMetadata) throws {
        do {
            AtomicFile.remove(staging)
            guard mkdir(staging, 0o755) == 0 else { throw POSIXFileError(operation: "mkdir", path: staging, code: errno) }
            guard let file = fopen(staging + "/journal", "w") else {
                throw POSIXFileError(operation: "create", path: staging + "/journal", code: errno)
            }
            journal = file
            var metadata = metadata
            metadata["scheme"] = template.usesTMSRows ? "tms" : "xyz"
            try stage(MetadataJSON.encode(metadata), finalPath: "metadata.json", modificationTime: nil)
        } catch let error as POSIXFileError {
            abort()
            throw error.storeError(store: location.path)
        }
    }

    public func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        let relative = template.path(for: tile.coordinate, fileExtension: fileExtension)
        do {
            for other in try existingPaths(for: tile.coordinate) where other != relative {
                try record("D \(other)\n")
            }
            try stage(tile.data, finalPath: relative, modificationTime: modificationTime)
        } catch {
            throw error.storeError(store: location.path, item: "tile \(tile.coordinate) (\(relative))")
        }
    }

    public func remove(_ coordinate: TileCoordinate) throws {
        do {
            for path in try existingPaths(for: coordinate) { try record("D \(path)\n") }
        } catch {
            throw error.storeError(store: location.path, item: "tile \(coordinate)")
        }
    }

    public func finish() throws {
        guard let journal else { throw TileStoreError(.unsupported, store: location.path, message: "finish before begin") }
        let flushed = fflush(journal) == 0 && fsync(fileno(journal)) == 0
        let flushError = errno
        fclose(journal)
        self.journal = nil
        do {
            guard flushed else { throw POSIXFileError(operation: "write", path: staging + "/journal", code: flushError) }
            try AtomicFile.rename(staging + "/journal", to: location.path + "/" + Self.journalName)
        } catch let error as POSIXFileError {
            abort()
            throw error.storeError(store: location.path, item: "journal")
        }
        isFinished = true
        try Self.apply(journal: location.path + "/" + Self.journalName, root: location.path)
        AtomicFile.remove(staging)
    }

    public func abort() {
        if let journal { fclose(journal) }
        journal = nil
        AtomicFile.remove(staging)
        isFinished = true
    }

    /// Writes bytes to a new staging file and journals its move to `finalPath`.
    private func stage(_ data: Data, finalPath: String, modificationTime: Int64?) throws(POSIXFileError) {
        counter += 1
        let name = String(counter)
        try FileBytes.write(data, to: staging + "/" + name)
        try record("P \(name) \(modificationTime.map(String.init) ?? "-") \(finalPath)\n")
    }

    private func record(_ line: String) throws(POSIXFileError) {
        guard let journal, fputs(line, journal) >= 0 else {
            throw POSIXFileError(operation: "write", path: staging + "/journal", code: errno)
        }
    }

    /// The current files of a coordinate: with an `{ext}` template, any extension TileSync reads.
    private func existingPaths(for coordinate: TileCoordinate) throws(POSIXFileError) -> [String] {
        let extensions = template.hasExtension ? [fileExtension] + DirectoryReader.knownExtensions.filter { $0 != fileExtension } : [fileExtension]
        return extensions.map { template.path(for: coordinate, fileExtension: $0) }
            .filter { AtomicFile.exists(location.path + "/" + $0) }
    }

    /// Carries out a committed journal; every step can be repeated after a crash.
    static func apply(journal path: String, root: String) throws(TileStoreError) {
        guard let file = fopen(path, "r") else {
            throw POSIXFileError(operation: "open", path: path, code: errno).storeError(store: root, item: journalName)
        }
        defer { fclose(file) }
        let staging = root + "/" + DirectoryTileWalk.stagingFolder
        var buffer = [CChar](repeating: 0, count: 8192)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingCharacters(in: .newlines)
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            if parts.count == 2, parts[0] == "D" {
                guard isInside(parts[1]) else { continue }
                unlink(root + "/" + parts[1])
            } else if parts.count == 4, parts[0] == "P", isInside(parts[3]) {
                let source = staging + "/" + parts[1], destination = root + "/" + parts[3]
                guard AtomicFile.exists(source) else { continue }
                if let slash = destination.lastIndex(of: "/") {
                    try? FileManager.default.createDirectory(atPath: String(destination[..<slash]), withIntermediateDirectories: true)
                }
                if let time = Int64(parts[2]) { _ = FileStamp.setModificationTime(time, path: source) }
                guard Foundation.rename(source, destination) == 0 else {
                    throw POSIXFileError(operation: "rename", path: destination, code: errno).storeError(store: root, item: parts[3])
                }
            }
        }
        unlink(path)
    }

    /// A journal path is relative and never leaves the folder.
    private static func isInside(_ relative: String) -> Bool {
        !relative.hasPrefix("/") && !relative.split(separator: "/").contains("..")
    }
}
