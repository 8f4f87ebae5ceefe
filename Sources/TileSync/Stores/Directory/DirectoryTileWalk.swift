/// Walks a folder for files laid out by a path template, pruning folders the filter excludes.
/// Yields tile paths without reading them; records everything else as skipped.
final class DirectoryTileWalk {
    private let walker: DirectoryWalker
    private let template: PathTemplate
    private let filter: TileFilter
    private let store: String
    private(set) var skipped = SkippedItems()
    /// Folder names and values captured on the way down, per depth.
    private var captured: [PathTemplate.Values] = []

    /// Files at the root that belong to the store but are no tiles: metadata, and TileSync's
    /// sync state and journal.
    static let rootMetadataFiles: Set<String> = ["metadata.json", "tiles.json", ".tilesync-state", ".tilesync-journal"]

    /// Where a sync stages new files before committing them (skipped by every walk).
    static let stagingFolder = ".tilesync-staging"

    /// Files of another layer at these paths (UTFGrids beside tiles, or tiles beside grids):
    /// passed over without being counted as skipped.
    private let companion: PathTemplate?
    /// Files of the companion layout passed over so far.
    private(set) var companionsSeen = 0
    /// True once `next()` returned nil: every entry within the filter was looked at.
    private(set) var isComplete = false

    /// - Parameters:
    ///   - reversesFiles: list the folders that hold the files in reverse name order.
    ///   - companion: the layout of files that belong to the store but to another layer (the
    ///     tile walk's grids, the grid walk's tiles); they are not counted as skipped.
    init(root: String, template: PathTemplate, filter: TileFilter, statsFiles: Bool = false,
         reversesFiles: Bool = false, companion: PathTemplate? = nil) throws(TileStoreError) {
        self.companion = companion
        do {
            walker = try DirectoryWalker(root: root, statsFiles: statsFiles,
                                         reversedDepth: reversesFiles ? template.segments.count - 1 : nil)
        } catch {
            throw error.storeError(store: root, item: "folder")
        }
        self.template = template
        self.filter = filter
        self.store = root
    }

    /// The stamp of the file `next()` returned last, when the walk stats files.
    private(set) var lastStamp: (size: Int, modificationTime: Int64)?
    /// The file name of the tile `next()` returned last.
    private(set) var lastName: [UInt8] = []
    private var lastFolderPath = ""
    /// The open folder holding the tile `next()` returned last (until the next call).
    var lastFolderDescriptor: Int32 { walker.currentFolderDescriptor }
    /// The relative path of the tile `next()` returned last (built on demand, for messages).
    var lastPath: String {
        let name = String(decoding: lastName, as: UTF8.self)
        return lastFolderPath.isEmpty ? name : lastFolderPath + "/" + name
    }

    /// The next tile's coordinate, or nil at the end (`lastPath` names its file).
    /// - Throws: `TileStoreError` `.invalidTile` for a path that fits the layout with bad values
    ///   (the walk can go on), `.io` when a folder cannot be listed.
    func next() throws(TileStoreError) -> TileCoordinate? {
        let fileDepth = template.segments.count - 1
        while let entry = walker.next() {
            switch entry.kind {
            case .directory:
                if entry.depth == 0, entry.name.elementsEqual(DirectoryTileWalk.stagingFolder.utf8) { continue }
                guard entry.depth < fileDepth else {
                    skipped.record(entry.relativePath, reason: "folder where the layout has files")
                    continue
                }
                var values = entry.depth > 0 && captured.count >= entry.depth ? captured[entry.depth - 1] : .init()
                guard template.capture(segment: entry.name, depth: entry.depth, into: &values) else {
                    skipped.record(entry.relativePath + "/", reason: "folder not in layout \(template)")
                    continue
                }
                if let z = values.wholeZ, !(z <= TileCoordinate.maxZoom && filter.allows(zoom: z)) {
                    if z > TileCoordinate.maxZoom { skipped.record(entry.relativePath + "/", reason: "zoom \(z) is over \(TileCoordinate.maxZoom)") }
                    continue
                }
                if let z = values.wholeZ, let x = values.wholeX, !filter.allows(zoom: z, column: x) { continue }
                if captured.count > entry.depth { captured.removeSubrange(entry.depth...) }
                captured.append(values)
                do {
                    try walker.descend(into: entry)
                } catch {
                    throw error.storeError(store: store, item: entry.relativePath)
                }
            case .file:
                if entry.depth == 0, Self.rootMetadataFiles.contains(entry.relativePath) { continue }
                guard entry.depth == fileDepth else {
                    skipped.record(entry.relativePath, reason: "not a tile path in layout \(template)")
                    continue
                }
                let match = template.match(fileName: entry.name, folders: folders(at: fileDepth), path: entry.relativePath)
                switch match {
                case .notATile:
                    if let companion, case .tile = companion.match(fileName: entry.name, folders: folders(at: fileDepth), path: entry.relativePath) {
                        companionsSeen += 1
                        continue
                    }
                    skipped.record(entry.relativePath, reason: "not a tile path in layout \(template)")
                case .invalid(let reason):
                    throw TileStoreError(.invalidTile, store: store, item: "file \(entry.relativePath)", message: reason)
                case .tile(let coordinate, _):
                    guard filter.contains(coordinate) else { continue }
                    lastStamp = entry.stamp
                    lastName = entry.name
                    lastFolderPath = entry.folderPath
                    return coordinate
                }
            case .symbolicLink:
                skipped.record(entry.relativePath, reason: "symbolic link, not followed")
            case .other:
                skipped.record(entry.relativePath, reason: "not a regular file")
            }
        }
        isComplete = true
        return nil
    }

    /// The values the folders above a file at `depth` captured.
    private func folders(at depth: Int) -> PathTemplate.Values {
        depth > 0 && captured.count >= depth ? captured[depth - 1] : .init()
    }

    /// Like `next()`, passing over paths with invalid coordinates (for scans that only look).
    func nextSkippingInvalid() throws(TileStoreError) -> TileCoordinate? {
        while true {
            do {
                return try next()
            } catch where error.kind == .invalidTile {
                continue
            }
        }
    }
}
