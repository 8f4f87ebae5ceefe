#if canImport(CTileSyncArchive)
import Foundation

/// Writes a tar archive of tiles: a `metadata.json` entry first (with `scheme`), then one entry
/// per tile at the path template; gzip or zstd compressed when the name ends in `.gz`/`.tgz` or
/// `.zst`/`.tzst`. POSIX pax format (plain ustar headers for short names), readable by GNU tar
/// and bsdtar.
///
/// The archive is written to a temporary file beside the destination and renamed into place in
/// `finish()`; `abort()` deletes it. A repeated coordinate adds a second entry; readers take the
/// last one, as tar does.
///
/// With `deduplicate`, a tile whose bytes repeat an earlier one is written as a hard-link entry
/// to that entry (GNU tar and bsdtar extract it as a hard link; TileSync reads it as a tile).
///
/// Errors: `.destinationExists` (without `overwrite`), `.io` (disk full, permissions).
final class TarWriter: TileTreeWriter {
    /// The archive to create.
    public let location: TileStoreLocation
    /// Entry paths of tiles.
    public let template: PathTemplate
    var fileExtension = "bin"
    let deduplicate: Bool
    private let temporaryPath: String
    private let modificationTime = Int(Date().timeIntervalSince1970)
    private var archive: (any TarEntryWriting)?
    private var isFinished = false
    /// The current entry's path, reused from tile to tile.
    private var entryPath: [UInt8] = []

    /// Prepares to write an archive.
    /// - Parameters:
    ///   - template: entry path of each tile (`{ext}` from the format `begin` gets).
    ///   - deduplicate: store repeated blobs as hard-link entries (`--dedup`).
    ///   - overwrite: replace an existing file (`--force`).
    ///   - gridCallback: the JSONP callback around `.grid.json` entries (empty: plain JSON).
    /// - Throws: `TileStoreError` `.destinationExists`.
    public init(location: TileStoreLocation, template: PathTemplate = .xyz,
                deduplicate: Bool = false, overwrite: Bool, gridCallback: String = GridCallbackOption.defaultValue) throws(TileStoreError) {
        self.gridCallback = gridCallback
        self.location = location
        self.template = template
        self.deduplicate = deduplicate
        try AtomicFile.refuseExisting(location.address, overwrite: overwrite)
        temporaryPath = AtomicFile.temporaryPath(beside: location.address)
    }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        let metadata = beginTree(metadata, format: format)
        do {
            let archive = try makeTarEntryWriter(path: temporaryPath, compression: TarCompression(name: location.address))
            self.archive = archive
            try archive.writeFile(path: "metadata.json", data: MetadataJSON.encode(metadata),
                                  modificationTime: modificationTime)
        } catch {
            abort()
            throw writeError(error)
        }
    }

    public func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        guard let archive else { throw TileStoreError(.unsupported, store: location.address, message: "write before begin") }
        entryPath.removeAll(keepingCapacity: true)
        template.appendPath(for: tile.coordinate, fileExtension: fileExtension, to: &entryPath)
        do {
            if deduplicate, let original {
                var target: [UInt8] = []
                template.appendPath(for: original, fileExtension: fileExtension, to: &target)
                try archive.writeHardLink(path: entryPath, target: target, modificationTime: modificationTime)
            } else {
                try archive.writeFile(path: entryPath, data: tile.data, modificationTime: modificationTime)
            }
        } catch {
            throw writeError(error)
        }
    }

    /// UTFGrids go to `.grid.json` entries beside the tiles, wrapped in `grid(...);` as mb-util
    /// writes them; a layout with `{ext}` before its end has no place for them.
    public var acceptsGrids: Bool { template.gridTemplate != nil }
    private let gridCallback: String

    public func write(grid: UTFGrid) throws {
        guard let archive, let gridTemplate = template.gridTemplate else {
            throw TileStoreError(.unsupported, store: location.address, message: archive == nil ? "write before begin" : "layout \(template) has no place for UTFGrids")
        }
        entryPath.removeAll(keepingCapacity: true)
        gridTemplate.appendPath(for: grid.coordinate, fileExtension: "", to: &entryPath)
        do {
            try archive.writeFile(path: entryPath, data: UTFGridJSON.document(grid.json, callback: gridCallback),
                                  modificationTime: modificationTime)
        } catch {
            throw writeError(error)
        }
    }

    public func finish() throws {
        guard let archive else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        do {
            try archive.close()
            self.archive = nil
            try AtomicFile.sync(path: temporaryPath)
            try AtomicFile.rename(temporaryPath, to: location.address)
            isFinished = true
        } catch let error as ArchiveError {
            abort()
            throw writeError(error)
        } catch let error as POSIXFileError {
            abort()
            throw error.storeError(store: location.address)
        }
    }

    public func abort() {
        archive = nil
        AtomicFile.remove(temporaryPath)
        isFinished = true
    }

    private func writeError(_ error: ArchiveError) -> TileStoreError {
        let full = error.code == ENOSPC || error.code == EDQUOT
        return TileStoreError(.io, store: location.address, item: error.entry.map { "entry '\($0)'" },
                              message: error.message, hint: full ? TileStoreError.diskFullHint : nil)
    }

    deinit {
        if !isFinished { abort() }
    }
}
#endif
