#if canImport(CTileSyncArchive)
import Foundation

/// Changes a tar archive the only safe way a tar allows: `finish()` writes a new archive to a
/// temporary file beside it (metadata first, then every old tile that was not changed or
/// removed, then the new tiles) and renames it over the old one. Until then the changes wait in a
/// private temporary SQLite table, so memory stays bounded. Links in the old archive are
/// resolved, so the new one holds plain entries.
///
/// Errors: `.io` (disk full, permissions), `.corrupt` (the old archive cannot be read).
final class TarUpdater: PendingChangesUpdater {
    /// The archive.
    public let location: TileStoreLocation
    private let layout: PathTemplate?
    /// Entry paths of the new archive: the layout given, else the old archive's.
    public private(set) var template = PathTemplate.xyz
    private var fileExtension = "bin"
    private(set) var changes: PendingTileChanges?
    /// UTFGrids put (their canonical JSON) and removed, like the tiles.
    private var gridChanges: PendingTileChanges?
    private var metadata = TileMetadata()
    private var temporaryPath: String?

    /// - Parameters:
    ///   - layout: the entry paths the old archive is read with and the new one written with;
    ///     nil: the old archive's (from its metadata), `{z}/{x}/{y}.{ext}` for a new one.
    ///   - gridCallback: the JSONP callback around the `.grid.json` entries written.
    public init(location: TileStoreLocation, layout: PathTemplate?, gridCallback: String = GridCallbackOption.defaultValue) {
        self.gridCallback = gridCallback
        self.location = location
        self.layout = layout
    }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        fileExtension = format.format.fileExtension
        self.metadata = metadata
        changes = try PendingTileChanges(store: location.address)
        gridChanges = try PendingTileChanges(store: location.address)
    }

    private let gridCallback: String

    /// UTFGrids are `.grid.json` entries beside the tiles; the old archive's are kept unless changed.
    public var acceptsGrids: Bool { (layout ?? template).gridTemplate != nil }

    public func put(grid: UTFGrid) throws {
        guard let gridChanges else { throw TileStoreError(.unsupported, store: location.address, message: "change before begin") }
        try gridChanges.record(grid.coordinate, data: grid.json)
    }

    public func removeGrid(at coordinate: TileCoordinate) throws {
        guard let gridChanges else { throw TileStoreError(.unsupported, store: location.address, message: "change before begin") }
        try gridChanges.record(coordinate, data: nil)
    }

    public func finish() throws {
        guard let changes else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        let temporary = AtomicFile.temporaryPath(beside: location.address)
        temporaryPath = temporary
        let time = Int(Date().timeIntervalSince1970)
        do {
            // The old archive is read with the layout given, else the one its metadata declares,
            // and the new one is written with the same.
            let old = AtomicFile.exists(location.address) ? try TarReader(location: location, template: layout) : nil
            template = old?.template ?? layout ?? .xyz
            TileTreeOptions.record(template, in: &metadata)
            let archive = try makeTarEntryWriter(path: temporary, compression: TarCompression(name: location.address))
            try archive.writeFile(path: "metadata.json", data: MetadataJSON.encode(metadata), modificationTime: time)
            if let old {
                let cursor = try old.tiles(matching: .all)
                while let tile = try cursor.next() {
                    if try !changes.contains(tile.coordinate) {
                        try archive.writeFile(path: template.path(for: tile.coordinate, fileExtension: fileExtension),
                                              data: tile.data, modificationTime: time)
                    }
                }
            }
            try changes.forEachPut { tile in
                try archive.writeFile(path: template.path(for: tile.coordinate, fileExtension: fileExtension),
                                      data: tile.data, modificationTime: time)
            }
            if let gridTemplate = template.gridTemplate {
                if let old, let grids = try old.grids(matching: .all) {
                    while let grid = try grids.next() {
                        if try gridChanges?.contains(grid.coordinate) == true { continue }
                        try archive.writeFile(path: gridTemplate.path(for: grid.coordinate, fileExtension: ""),
                                              data: UTFGridJSON.document(grid.json, callback: gridCallback), modificationTime: time)
                    }
                }
                try gridChanges?.forEachPut { grid in
                    try archive.writeFile(path: gridTemplate.path(for: grid.coordinate, fileExtension: ""),
                                          data: UTFGridJSON.document(grid.data, callback: gridCallback), modificationTime: time)
                }
            }
            try archive.close()
            try AtomicFile.sync(path: temporary)
            try AtomicFile.rename(temporary, to: location.address)
            temporaryPath = nil
        } catch let error as TileStoreError {
            abort()
            throw error
        } catch let error as ArchiveError {
            abort()
            throw TileStoreError(.io, store: location.address, item: error.entry.map { "entry '\($0)'" }, message: error.message,
                                 hint: error.code == ENOSPC || error.code == EDQUOT ? TileStoreError.diskFullHint : nil)
        } catch let error as POSIXFileError {
            abort()
            throw error.storeError(store: location.address)
        } catch {
            abort()
            throw TileStoreError(.io, store: location.address, message: "\(error)")
        }
        self.changes = nil
        gridChanges = nil
    }

    public func abort() {
        changes = nil
        gridChanges = nil
        if let temporaryPath { AtomicFile.remove(temporaryPath) }
        temporaryPath = nil
    }

    deinit {
        abort()
    }
}
#endif
