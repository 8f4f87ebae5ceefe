#if canImport(CTileSyncArchive)
import Foundation

/// Reads a tar archive's headers and sorts each entry into metadata, tile or skipped, so the
/// cursor, the summary and random access share one set of rules.
final class TarEntryScanner {
    enum Found {
        case metadata(size: Int64?)
        case tile(TileCoordinate, entryPath: String, size: Int64?)
        /// A hard-link entry at a tile path whose target is another entry of this archive
        /// (`target` cleaned like entry paths); its bytes are the target's.
        case link(TileCoordinate, entryPath: String, target: String)
    }

    /// Position of the current entry in the archive (0 for the first header).
    private(set) var position = -1

    let archive: ArchiveFileReader
    private let template: PathTemplate
    private let store: String
    private(set) var skipped = SkippedItems()
    /// How many regular files' paths `sample` keeps (0: none).
    var sampleLimit = 0
    /// The first regular files' cleaned paths, metadata left out, whatever the layout.
    private(set) var sample: [String] = []

    /// Entries of the store's other layer (UTFGrids beside tiles, or tiles beside grids): passed
    /// over without being counted as skipped.
    private let companion: PathTemplate?
    /// Entries of the companion layout passed over so far.
    private(set) var companionsSeen = 0

    init(path: String, template: PathTemplate, companion: PathTemplate? = nil) throws(TileStoreError) {
        self.companion = companion
        do {
            archive = try ArchiveFileReader(path: path)
        } catch {
            throw TarReader.storeError(error, store: path)
        }
        self.template = template
        store = path
    }

    /// The next metadata or tile entry, positioned so its data can be read or skipped.
    /// - Throws: `TileStoreError` `.invalidTile` for a tile-shaped path with bad values (the scan
    ///   can go on), `.corrupt` for a damaged archive.
    func next() throws(TileStoreError) -> Found? {
        while true {
            let header: ArchiveEntryHeader?
            do {
                header = try archive.nextEntry()
            } catch {
                throw TarReader.storeError(error, store: store)
            }
            guard let header else { return nil }
            position += 1
            let path: String
            switch TarEntryPath.clean(header.path) {
            case .root: continue
            case .hostile(let reason):
                skipped.record("entry '\(header.path)'", reason: "\(reason), refused")
                continue
            case .path(let cleaned): path = cleaned
            }
            switch header.kind {
            case .directory: continue
            case .symbolicLink(let target):
                skipped.record("entry '\(header.path)'", reason: "symbolic link to '\(target)', not followed")
                continue
            case .hardLink(let target):
                guard case .path(let cleanedTarget) = TarEntryPath.clean(target),
                      case .tile(let coordinate, _) = template.match(path) else {
                    if isCompanion(path) { continue }
                    skipped.record("entry '\(header.path)'", reason: "hard link to '\(target)', not followed")
                    continue
                }
                return .link(coordinate, entryPath: header.path, target: cleanedTarget)
            case .other:
                skipped.record("entry '\(header.path)'", reason: "not a regular file")
                continue
            case .regularFile: break
            }
            if path == "metadata.json" { return .metadata(size: header.size) }
            if sample.count < sampleLimit, path != "tiles.json", !path.hasSuffix(".grid.json") { sample.append(path) }
            switch template.match(path) {
            case .notATile:
                if path != "tiles.json", !isCompanion(path) {
                    skipped.record("entry '\(header.path)'", reason: "not a tile path in layout \(template)")
                }
            case .invalid(let reason):
                throw TileStoreError(.invalidTile, store: store, item: "entry '\(header.path)'", message: reason)
            case .tile(let coordinate, _):
                return .tile(coordinate, entryPath: path, size: header.size)
            }
        }
    }

    private func isCompanion(_ path: String) -> Bool {
        guard let companion, case .tile = companion.match(path) else { return false }
        companionsSeen += 1
        return true
    }

    /// Like `next()`, passing over entries with invalid coordinates (for scans that only look).
    func nextSkippingInvalid() throws(TileStoreError) -> Found? {
        while true {
            do {
                return try next()
            } catch where error.kind == .invalidTile {
                continue
            }
        }
    }

    /// Reads the current entry's data (at most `FileBytes.maxTileSize` bytes).
    func readData(size: Int64?, item: String) throws(TileStoreError) -> Data {
        do {
            return try archive.readData(expectedSize: size, limit: FileBytes.maxTileSize)
        } catch {
            throw TarReader.storeError(error, store: store)
        }
    }
}
#endif
