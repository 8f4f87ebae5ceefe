import Foundation

/// Writes a folder tree of tile files at a path template, with `metadata.json` at the root
/// (a flat object of strings, as mb-util writes it; `scheme` records `xyz` or `tms`).
///
/// The tree is built in a hidden temporary folder beside the destination and renamed into place
/// in `finish()`, so the destination never holds a partial tree; `abort()` deletes it. An
/// existing destination (with `overwrite`) is swapped out and removed after the rename.
///
/// With `deduplicate`, a tile whose bytes repeat an earlier one is a hard link to that file, so
/// the tree takes the space of its distinct blobs while every path still reads as a file.
///
/// Errors: `.destinationExists` (a non-empty folder or any file, without `overwrite`), `.io`.
final class DirectoryWriter: TileTreeWriter {
    /// The folder to create.
    public let location: TileStoreLocation
    /// Where tiles go in it.
    public let template: PathTemplate
    var fileExtension = "bin"
    let deduplicate: Bool
    private let preservesModificationTimes: Bool
    private let stagingPath: String
    private var createdFolders: Set<String> = []
    private var openFolder: (relative: [UInt8], descriptor: Int32)?
    /// Column folders kept open besides the last one, for tiles that do not come column by
    /// column (a PMTiles streams along the Hilbert curve): opened at most once while they stay.
    private var openFolders: [[UInt8]: Int32] = [:]
    private var openOrder: [[UInt8]] = []
    /// A quarter of the process's descriptor limit, at most 1,024 (a zoom-10 Hilbert walk).
    private static let openFolderLimit: Int = {
        var limit = rlimit()
        #if os(Linux)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 64 }
        return max(8, min(1024, Int(clamping: limit.rlim_cur) / 4))
    }()
    /// The current tile's relative path, reused from tile to tile.
    private var pathBytes: [UInt8] = []
    private var hasBegun = false
    private var isFinished = false

    /// Prepares to write a folder.
    /// - Parameters:
    ///   - template: where each tile goes (`{ext}` is the extension of the format `begin` gets).
    ///   - deduplicate: store repeated blobs as hard links (`--dedup`).
    ///   - preservesModificationTimes: give each file the `modificationTime` of its tile, where
    ///     the tile has one (read from a folder), as `rsync -a` does.
    ///   - overwrite: replace an existing destination (`--force`).
    ///   - gridCallback: the JSONP callback around `.grid.json` files (empty: plain JSON).
    /// - Throws: `TileStoreError` `.destinationExists`.
    public init(location: TileStoreLocation, template: PathTemplate = .xyz,
                deduplicate: Bool = false, preservesModificationTimes: Bool = false, overwrite: Bool,
                gridCallback: String = GridCallbackOption.defaultValue) throws(TileStoreError) {
        self.gridCallback = gridCallback
        self.location = location
        self.template = template
        self.deduplicate = deduplicate
        self.preservesModificationTimes = preservesModificationTimes
        try AtomicFile.refuseExisting(location.address, overwrite: overwrite, allowEmptyFolder: true)
        stagingPath = AtomicFile.temporaryPath(beside: location.address)
    }

    deinit {
        if !isFinished { abort() }
    }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        let metadata = beginTree(metadata, format: format)
        do {
            try FileManager.default.createDirectory(atPath: stagingPath, withIntermediateDirectories: false)
            try FileBytes.write(MetadataJSON.encode(metadata), to: stagingPath + "/metadata.json")
        } catch let error as POSIXFileError {
            abort()
            throw error.storeError(store: location.address, item: "metadata.json")
        } catch {
            abort()
            throw TileStoreError(.io, store: location.address, message: "cannot create a folder beside it: \(error.localizedDescription)")
        }
        hasBegun = true
    }

    public func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        guard hasBegun else { throw TileStoreError(.unsupported, store: location.address, message: "write before begin") }
        pathBytes.removeAll(keepingCapacity: true)
        template.appendPath(for: tile.coordinate, fileExtension: fileExtension, to: &pathBytes)
        let link = deduplicate ? original.map { stagingPath + "/" + template.path(for: $0, fileExtension: fileExtension) } : nil
        try writeFile(tile.data, linkingTo: link, modificationTime: preservesModificationTimes ? tile.modificationTime : nil,
                      item: "tile \(tile.coordinate)")
    }

    /// UTFGrids go to `.grid.json` files beside the tiles, wrapped in `grid(...);` as mb-util
    /// writes them; a layout with `{ext}` before its end has no place for them.
    public var acceptsGrids: Bool { template.gridTemplate != nil }
    private let gridCallback: String

    public func write(grid: UTFGrid) throws {
        guard hasBegun, let gridTemplate = template.gridTemplate else {
            throw TileStoreError(.unsupported, store: location.address, message: hasBegun ? "layout \(template) has no place for UTFGrids" : "write before begin")
        }
        pathBytes.removeAll(keepingCapacity: true)
        gridTemplate.appendPath(for: grid.coordinate, fileExtension: "", to: &pathBytes)
        try writeFile(UTFGridJSON.document(grid.json, callback: gridCallback), linkingTo: nil, modificationTime: nil,
                      item: "grid \(grid.coordinate)")
    }

    /// Writes `data` (or a hard link to `link`, when that works) at the staging path in `pathBytes`.
    private func writeFile(_ data: Data, linkingTo link: String?, modificationTime: Int64?, item: String) throws {
        let slash = pathBytes.lastIndex(of: UInt8(ascii: "/"))
        let relative = { String(decoding: self.pathBytes, as: UTF8.self) }
        do {
            let descriptor = try folderDescriptor(pathBytes[..<(slash ?? 0)])
            let name = String(decoding: pathBytes[(slash.map { $0 + 1 } ?? 0)...], as: UTF8.self)
            if let link {
                unlinkat(descriptor, name, 0)
                if retryingOnInterrupt({ linkat(AT_FDCWD, link, descriptor, name, 0) }) == 0 { return }
            }
            try FileBytes.write(data, in: descriptor, name: name, path: stagingPath + "/" + relative(), modificationTime: modificationTime)
        } catch {
            throw error.storeError(store: location.address, item: "\(item) (\(relative()))")
        }
    }

    /// The open folder `relative` of the staging tree, created with its parents when new; the
    /// last one and up to `openFolderLimit` before it stay open.
    private func folderDescriptor(_ relativeBytes: ArraySlice<UInt8>) throws(POSIXFileError) -> Int32 {
        if let open = openFolder, open.relative.elementsEqual(relativeBytes) { return open.descriptor }
        let key = Array(relativeBytes)
        if let descriptor = openFolders[key] {
            openFolder = (key, descriptor)
            return descriptor
        }
        if openOrder.count == Self.openFolderLimit {
            let oldest = openOrder.removeFirst()
            if let descriptor = openFolders.removeValue(forKey: oldest) { close(descriptor) }
        }
        let relative = String(decoding: relativeBytes, as: UTF8.self)
        if !relative.isEmpty { try createFolders(relative) }
        let path = relative.isEmpty ? stagingPath : stagingPath + "/" + relative
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
        openFolder = (key, descriptor)
        openFolders[key] = descriptor
        openOrder.append(key)
        return descriptor
    }

    private func closeOpenFolder() {
        for descriptor in openFolders.values { close(descriptor) }
        openFolders = [:]
        openOrder = []
        openFolder = nil
    }

    public func finish() throws {
        guard hasBegun else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        closeOpenFolder()
        let path = location.address
        var displaced: String?
        do {
            if AtomicFile.exists(path) {
                if Self.isEmptyFolder(path) {
                    try? FileManager.default.removeItem(atPath: path)
                } else {
                    let old = AtomicFile.temporaryPath(beside: path)
                    try AtomicFile.rename(path, to: old)
                    displaced = old
                }
            }
            try AtomicFile.rename(stagingPath, to: path)
        } catch {
            if let displaced { try? AtomicFile.rename(displaced, to: path) }
            abort()
            throw error.storeError(store: path)
        }
        isFinished = true
        if let displaced { AtomicFile.remove(displaced) }
    }

    public func abort() {
        closeOpenFolder()
        AtomicFile.remove(stagingPath)
        isFinished = true
    }

    private func createFolders(_ relative: String) throws(POSIXFileError) {
        guard !createdFolders.contains(relative) else { return }
        var path = stagingPath
        for component in relative.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw POSIXFileError(operation: "mkdir", path: path, code: errno)
            }
        }
        createdFolders.insert(relative)
    }

    static func isEmptyFolder(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true
    }
}
