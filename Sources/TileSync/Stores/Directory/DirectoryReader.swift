import Foundation

/// Reads a folder tree of tile files laid out by a `PathTemplate` (default `{z}/{x}/{y}.{ext}`),
/// with metadata from `metadata.json` (mb-util, tippecanoe) or `tiles.json` (TileJSON) at the root.
///
/// Any extension is accepted; the bytes say what a tile is. When no layout is given, a
/// `scheme` of `tms` in the metadata selects `{z}/{x}/{-y}.{ext}`. Symbolic links are never
/// followed, also by random access (`tile(at:)` resolves paths without following links on the
/// way); files that do not fit the layout are skipped and counted. Tiles stream in
/// (zoom, column, row) order for `{z}/{x}/{y}` layouts, in path order otherwise.
///
/// Errors: `.notFound`, `.notATileStore` (a file, not a folder), `.invalidMetadata`,
/// `.invalidTile` (out-of-range numbers, empty or unreadable files), `.io`.
final class DirectoryReader: TileReader, StoreInspection, GridReading, TileFileOpening, MergeStreaming {
    /// The folder.
    public let location: TileStoreLocation
    /// Its inspection (the layout hint when every entry was skipped) and its `.grid.json` grids.
    public var roles: TileReaderRoles { TileReaderRoles(mergeStreaming: self, inspection: self, grids: self, tileFiles: self) }
    /// The layout tiles are read at.
    public let template: PathTemplate
    /// How the layout was chosen when none was given (`TileTreeLayoutDetection`); nil when given.
    let detection: TileTreeLayoutDetection?
    private let cachedMetadata: TileMetadata
    /// The extensions `tile(at:)` tries, the metadata's format first.
    private let extensionsToTry: [String]
    private var tree: ContainedFolder?
    /// The path `openTileFile(at:)` builds, reused from tile to tile.
    private var pathBuffer: [UInt8] = []
    /// The folder and layout its `TileFile`s share.
    private let fileLayout: TileFile.Layout
    private let gridPresence = GridPresence()

    /// Opens a folder.
    /// - Parameter template: the layout; nil: the metadata's `layout`, else found from a sample
    ///   of the paths (`TileTreeLayoutDetection`), with the metadata's `scheme` for the rows.
    /// - Throws: `TileStoreError` when the folder is missing or its metadata is malformed.
    public init(location: TileStoreLocation, template: PathTemplate? = nil) throws(TileStoreError) {
        self.location = location
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location.address, isDirectory: &isDirectory) else {
            throw TileStoreError(.notFound, store: location.address, message: "no such folder")
        }
        guard isDirectory.boolValue else {
            throw TileStoreError(.notATileStore, store: location.address, message: "is a file, not a folder")
        }
        cachedMetadata = try Self.readMetadata(root: location.address)
        if let template {
            self.template = template
            detection = nil
        } else {
            let detected = Self.detectLayout(root: location.address, metadata: cachedMetadata)
            self.template = detected.template
            detection = detected
        }
        extensionsToTry = self.template.candidateExtensions(first: cachedMetadata.format?.fileExtension)
        fileLayout = TileFile.Layout(store: location.address, template: self.template)
    }

    /// The layout of the folder at `root` with `metadata`, when none is given.
    static func detectLayout(root: String, metadata: TileMetadata) -> TileTreeLayoutDetection {
        TileTreeLayoutDetection.choose(metadata: metadata, sample: DirectoryPathSample.paths(root: root), store: root)
    }

    public var schemaDescription: String { template.text + (detection?.brief.map { " (\($0))" } ?? "") }

    var readerNotes: [String] { detection?.note.map { [$0] } ?? [] }

    /// A layout that reads the skipped paths, or the one folder they are in.
    public func layoutHint(forSkipped skipped: SkippedItems) -> String? {
        TileTreeOptions.layoutHint(paths: skipped.named.map(\.item), template: template)
    }
    public var order: TileOrder { template.walkOrder }

    public func metadata() throws -> TileMetadata { cachedMetadata }

    public func tiles(matching filter: TileFilter) throws -> any TileCursor {
        DirectoryCursor(walk(try DirectoryTileWalk(root: location.address, template: template, filter: filter, companion: template.gridTemplate),
                             filter: filter))
    }

    /// The walk of `tiles(matching:)`, each file read only when asked (`DirectoryLazyCursor`).
    func lazyTiles(matching filter: TileFilter) throws -> (any LazyTileCursor)? {
        DirectoryLazyCursor(walk(try DirectoryTileWalk(root: location.address, template: template, filter: filter, companion: template.gridTemplate),
                                 filter: filter))
    }

    /// Nil: a folder names its last tile only by walking it.
    func lastStreamedCoordinate(matching filter: TileFilter) -> TileCoordinate? { nil }

    /// Tiles in `preferred` order when the layout ends in the row (`{z}/{x}/{y}` read in TMS row
    /// order, or `{z}/{x}/{-y}` in XYZ row order): each column folder is listed backwards.
    public func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor {
        let native = template.walkOrder
        let rowOrders: [TileOrder] = [.zoomColumnRow, .zoomColumnTMSRow]
        let reversesRows = rowOrders.contains(native) && rowOrders.contains(preferred) && native != preferred
        return DirectoryCursor(walk(try DirectoryTileWalk(root: location.address, template: template, filter: filter,
                                                          reversesFiles: reversesRows, companion: template.gridTemplate),
                                    filter: filter))
    }

    /// Coordinates, sizes and modification times from `lstat`; no file is read.
    public func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        DirectoryListingCursor(walk(try DirectoryTileWalk(root: location.address, template: template, filter: filter, statsFiles: true,
                                                          companion: template.gridTemplate),
                                    filter: filter))
    }

    /// A walk of this folder for a cursor, which reports at its end whether grids were beside the tiles.
    private func walk(_ walk: DirectoryTileWalk, filter: TileFilter) -> DirectoryCursorWalk {
        DirectoryCursorWalk(walk: walk, root: location.address, grids: gridPresence, filter: filter)
    }

    /// The `.grid.json` files beside the tiles (`PathTemplate.gridTemplate`); nil when the
    /// layout has `{ext}` before its end and so no place for them.
    /// Nil also when a complete walk of the tiles within `filter` met no grid file.
    public func grids(matching filter: TileFilter) throws -> (any UTFGridCursor)? {
        guard let grids = template.gridTemplate, !gridPresence.isKnownAbsent(within: filter) else { return nil }
        return DirectoryGridCursor(walk: try DirectoryTileWalk(root: location.address, template: grids, filter: filter, companion: template),
                                   root: location.address)
    }

    public func tile(at coordinate: TileCoordinate) throws -> Data? {
        try openTileFile(at: coordinate)?.bytes()
    }

    func openTileFile(at coordinate: TileCoordinate) throws -> TileFile? {
        let tree = try openTree()
        for fileExtension in extensionsToTry {
            pathBuffer.removeAll(keepingCapacity: true)
            template.appendPath(for: coordinate, fileExtension: fileExtension, to: &pathBuffer)
            pathBuffer.append(0)
            do {
                guard let (descriptor, status) = try tree.openFile(pathBuffer, limit: FileBytes.maxTileSize) else { continue }
                guard status.st_size > 0 else {
                    close(descriptor)
                    throw TileStoreError(.invalidTile, store: location.address, item: "file \(template.path(for: coordinate, fileExtension: fileExtension))",
                                         message: "empty file (0 bytes)")
                }
                return TileFile(descriptor: descriptor, status: status, layout: fileLayout, coordinate: coordinate, fileExtension: fileExtension)
            } catch let error as POSIXFileError {
                throw TileStoreError(.invalidTile, store: location.address, item: "file \(template.path(for: coordinate, fileExtension: fileExtension))",
                                     message: error.description)
            }
        }
        return nil
    }

    private func openTree() throws(TileStoreError) -> ContainedFolder {
        if let tree { return tree }
        do {
            let opened = try ContainedFolder(root: location.address)
            tree = opened
            return opened
        } catch {
            throw error.storeError(store: location.address, item: "folder")
        }
    }

    public func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        let walk = try DirectoryTileWalk(root: location.address, template: template, filter: filter, statsFiles: countingBytes,
                                         companion: template.gridTemplate)
        var summary = TileSetSummary()
        while let coordinate = try walk.nextSkippingInvalid() {
            summary.add(coordinate, size: walk.lastStamp?.size ?? 0)
        }
        gridPresence.record(filter: filter, sawGrids: walk.companionsSeen > 0)
        return summary
    }

    static func readMetadata(root: String) throws(TileStoreError) -> TileMetadata {
        for name in ["metadata.json", "tiles.json"] {
            let path = root + "/" + name
            let data: Data
            do {
                data = try FileBytes.read(path, limit: 16 << 20)
            } catch where error.code == ENOENT {
                continue
            } catch {
                throw TileStoreError(.invalidMetadata, store: root, item: name, message: error.description)
            }
            do {
                return try MetadataJSON.decode(data)
            } catch {
                throw TileStoreError(.invalidMetadata, store: root, item: name, message: "not a JSON object: \(error)")
            }
        }
        return TileMetadata()
    }
}
