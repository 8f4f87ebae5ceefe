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
/// to a journal there (`P staged final mtime` to put, `D final` to delete). `finish()` makes the
/// staged files durable (one `syncfs`, else an `fsync` each), flushes the journal and renames it
/// to `.tilesync-journal`: that rename is the commit. The journal is then carried out (renames
/// into place, deletions) and removed. `recover(root:)`, run before every sync, completes a
/// committed journal (roll forward) or discards an uncommitted staging folder (roll back).
/// Readers do not see staged files: the walk skips both names.
///
/// Paths are resolved from the root without following links (`ContainedFolder`): a link inside
/// the tree is never written through, a link where a folder belongs is replaced by a real
/// folder, and a deletion never reaches outside. A folder that does not exist yet is written
/// whole by a `DirectoryWriter` and renamed into place at `finish()`.
///
/// Errors: `.io` (disk full, permissions), naming the file.
final class DirectoryUpdater: TileUpdater {
    /// The folder.
    public let location: TileStoreLocation
    private let layout: PathTemplate?
    /// Where tiles go in it: the layout given, else the one its metadata's `scheme` says.
    public private(set) var template = PathTemplate.xyz
    private var fileExtension = "bin"
    private var newFolder: DirectoryWriter?
    private var tree: ContainedFolder?
    private var staging: Int32 = -1
    private var journal: UnsafeMutablePointer<FILE>?
    private var counter = 0
    /// Flushes the file system of the staging folder in one call; false when it cannot, and
    /// each staged file is flushed instead (replaceable by tests to watch the order of steps).
    var flushFileSystem: (Int32) -> Bool = FileSystemFlush.flush(containing:)

    static let journalName = ".tilesync-journal"
    private var root: String { location.address }
    private var journalPath: String { root + "/" + DirectoryTileWalk.stagingFolder + "/journal" }

    /// Prepares to change the folder at `location` (created when missing).
    /// - Parameter layout: where tiles go; nil: the layout the folder's metadata says.
    /// - Parameter gridCallback: the JSONP callback around `.grid.json` files written.
    public init(location: TileStoreLocation, layout: PathTemplate?, gridCallback: String = GridCallbackOption.defaultValue) {
        self.gridCallback = gridCallback
        self.location = location
        self.layout = layout
    }

    deinit {
        abort()
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

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        fileExtension = format.format.fileExtension
        guard AtomicFile.exists(root) else {
            template = layout ?? .xyz
            let writer = try DirectoryWriter(location: location, template: template, preservesModificationTimes: true, overwrite: false,
                                             gridCallback: gridCallback)
            try writer.begin(metadata: metadata, format: format)
            newFolder = writer
            return
        }
        try Self.recover(root: root)
        let existing = try DirectoryReader.readMetadata(root: root)
        template = layout ?? DirectoryReader.detectLayout(root: root, metadata: existing).template
        do {
            let tree = try ContainedFolder(root: root)
            self.tree = tree
            guard mkdirat(tree.descriptor, DirectoryTileWalk.stagingFolder, 0o755) == 0 else {
                throw POSIXFileError(operation: "mkdir", path: root + "/" + DirectoryTileWalk.stagingFolder, code: errno)
            }
            staging = retryingOnInterrupt { openat(tree.descriptor, DirectoryTileWalk.stagingFolder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard staging >= 0 else { throw POSIXFileError(operation: "open", path: root + "/" + DirectoryTileWalk.stagingFolder, code: errno) }
            guard let file = fopen(journalPath, "w") else { throw POSIXFileError(operation: "create", path: journalPath, code: errno) }
            journal = file
            var metadata = metadata
            TileTreeOptions.record(template, in: &metadata)
            try stage(MetadataJSON.encode(metadata), finalPath: "metadata.json", modificationTime: nil)
        } catch let error as POSIXFileError {
            abort()
            throw error.storeError(store: root)
        }
    }

    public func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        if let newFolder {
            try newFolder.write(Tile(coordinate: tile.coordinate, data: tile.data, modificationTime: modificationTime),
                                hash: hash, duplicateOf: nil)
            return
        }
        let relative = template.path(for: tile.coordinate, fileExtension: fileExtension)
        do {
            for other in try existingPaths(for: tile.coordinate) where other != relative {
                try record("D \(other)\n")
            }
            try stage(tile.data, finalPath: relative, modificationTime: modificationTime)
        } catch {
            throw error.storeError(store: root, item: "tile \(tile.coordinate) (\(relative))")
        }
    }

    public func remove(_ coordinate: TileCoordinate) throws {
        guard newFolder == nil else { return }
        do {
            for path in try existingPaths(for: coordinate) { try record("D \(path)\n") }
        } catch {
            throw error.storeError(store: root, item: "tile \(coordinate)")
        }
    }

    /// UTFGrids are `.grid.json` files beside the tiles, changed through the same journal.
    public var acceptsGrids: Bool { template.gridTemplate != nil }
    private let gridCallback: String

    public func put(grid: UTFGrid) throws {
        if let newFolder {
            try newFolder.write(grid: grid)
            return
        }
        guard let gridTemplate = template.gridTemplate else {
            throw TileStoreError(.unsupported, store: root, message: "layout \(template) has no place for UTFGrids")
        }
        let relative = gridTemplate.path(for: grid.coordinate, fileExtension: "")
        do {
            try stage(UTFGridJSON.document(grid.json, callback: gridCallback), finalPath: relative, modificationTime: nil)
        } catch {
            throw error.storeError(store: root, item: "grid \(grid.coordinate) (\(relative))")
        }
    }

    public func removeGrid(at coordinate: TileCoordinate) throws {
        guard newFolder == nil, let gridTemplate = template.gridTemplate, let tree else { return }
        let relative = gridTemplate.path(for: coordinate, fileExtension: "")
        do {
            if tree.hasEntry(at: relative) { try record("D \(relative)\n") }
        } catch {
            throw error.storeError(store: root, item: "grid \(coordinate) (\(relative))")
        }
    }

    public func finish() throws {
        if let newFolder {
            try newFolder.finish()
            self.newFolder = nil
            return
        }
        guard let journal else { throw TileStoreError(.unsupported, store: root, message: "finish before begin") }
        let flushed = fflush(journal) == 0 && retryingOnInterrupt({ fsync(fileno(journal)) }) == 0
        let flushError = errno
        fclose(journal)
        self.journal = nil
        do {
            guard flushed else { throw POSIXFileError(operation: "write", path: journalPath, code: flushError) }
            try makeStagedFilesDurable()
            try AtomicFile.rename(journalPath, to: root + "/" + Self.journalName)
        } catch let error as POSIXFileError {
            abort()
            throw error.storeError(store: root, item: "journal")
        }
        // Committed: from here on only the journal's own steps may touch the staged files.
        closeStaging()
        tree = nil
        try Self.apply(journal: root + "/" + Self.journalName, root: root)
        AtomicFile.remove(root + "/" + DirectoryTileWalk.stagingFolder)
    }

    public func abort() {
        newFolder?.abort()
        newFolder = nil
        if let journal { fclose(journal) }
        journal = nil
        if tree != nil { AtomicFile.remove(root + "/" + DirectoryTileWalk.stagingFolder) }
        closeStaging()
        tree = nil
    }

    private func closeStaging() {
        if staging >= 0 { close(staging) }
        staging = -1
    }

    /// Writes bytes to a new staging file and journals its move to `finalPath`.
    private func stage(_ data: Data, finalPath: String, modificationTime: Int64?) throws(POSIXFileError) {
        counter += 1
        let name = String(counter)
        try FileBytes.write(data, in: staging, name: name, path: root + "/" + DirectoryTileWalk.stagingFolder + "/" + name)
        try record("P \(name) \(modificationTime.map(String.init) ?? "-") \(finalPath)\n")
    }

    /// Every staged file on stable storage before the journal commits: one `syncfs` where there
    /// is one, else an `fsync` of each file and of the staging folder.
    private func makeStagedFilesDurable() throws(POSIXFileError) {
        if flushFileSystem(staging) { return }
        for index in 0...counter {
            let name = index == 0 ? "." : String(index)
            let path = root + "/" + DirectoryTileWalk.stagingFolder + "/" + name
            let descriptor = retryingOnInterrupt { openat(staging, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
            guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
            defer { close(descriptor) }
            guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else { throw POSIXFileError(operation: "fsync", path: path, code: errno) }
        }
    }

    private func record(_ line: String) throws(POSIXFileError) {
        guard let journal, fputs(line, journal) >= 0 else {
            throw POSIXFileError(operation: "write", path: journalPath, code: errno)
        }
    }

    /// The current files of a coordinate: with an `{ext}` template, any extension TileSync reads.
    private func existingPaths(for coordinate: TileCoordinate) throws(POSIXFileError) -> [String] {
        guard let tree else { return [] }
        return template.candidateExtensions(first: fileExtension).map { template.path(for: coordinate, fileExtension: $0) }.filter { tree.hasEntry(at: $0) }
    }

    /// Carries out a committed journal; every step can be repeated after a crash. Paths are
    /// resolved inside the folder without following links.
    static func apply(journal path: String, root: String) throws(TileStoreError) {
        let tree: ContainedFolder
        do {
            tree = try ContainedFolder(root: root)
        } catch {
            throw error.storeError(store: root, item: journalName)
        }
        guard let file = fopen(path, "r") else {
            throw POSIXFileError(operation: "open", path: path, code: errno).storeError(store: root, item: journalName)
        }
        defer { fclose(file) }
        let staging = retryingOnInterrupt { openat(tree.descriptor, DirectoryTileWalk.stagingFolder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        defer { if staging >= 0 { close(staging) } }
        var buffer = [CChar](repeating: 0, count: 8192)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingCharacters(in: .newlines)
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            if parts.count == 2, parts[0] == "D", isInside(parts[1]) {
                tree.removeFile(parts[1])
            } else if parts.count == 4, parts[0] == "P", isInside(parts[3]), staging >= 0, !parts[1].contains("/") {
                var info = stat()
                guard fstatat(staging, parts[1], &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                if let time = Int64(parts[2]) {
                    var times = [FileTime.timeSpec(nanoseconds: time), FileTime.timeSpec(nanoseconds: time)]
                    _ = retryingOnInterrupt { utimensat(staging, parts[1], &times, AT_SYMLINK_NOFOLLOW) }
                }
                do {
                    try tree.moveIn(parts[1], from: staging, to: parts[3])
                } catch {
                    throw error.storeError(store: root, item: parts[3])
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
