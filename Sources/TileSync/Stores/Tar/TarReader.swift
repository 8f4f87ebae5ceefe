#if canImport(CTileSyncArchive)
import Foundation

/// Reads a tar archive of tiles (`.tar`, `.tar.gz`/`.tgz`, `.tar.zst`, and any compression
/// libarchive detects): entries at a path template (default `{z}/{x}/{y}.{ext}`) and a
/// `metadata.json` entry, as GNU tar and bsdtar write them (`./` prefixes, folder entries, pax
/// headers).
///
/// Links are never followed; entries with absolute paths, `..`, drive letters or backslashes,
/// links, devices and non-tile files are skipped and named. Tiles stream in archive order.
/// Random access (`tile(at:)`) scans the archive (the last entry for a coordinate wins).
///
/// Errors: `.notFound`, `.notATileStore` (not a tar), `.corrupt` (truncated or damaged),
/// `.invalidTile` (out-of-range numbers, empty entries), `.invalidMetadata`.
final class TarReader: TileReader, StoreInspection, GridReading {
    /// The archive.
    public let location: TileStoreLocation
    /// Its inspection (the layout hint when every entry was skipped) and its `.grid.json` grids.
    public var roles: TileReaderRoles { TileReaderRoles(inspection: self, grids: self) }
    /// The layout entries are read at.
    public let template: PathTemplate
    /// How the layout was chosen when none was given (`TileTreeLayoutDetection`); nil when given.
    let detection: TileTreeLayoutDetection?
    private let cachedMetadata: TileMetadata
    private let gridPresence = GridPresence()

    /// Opens an archive and reads its metadata (the first entry in archives TileSync writes;
    /// other archives are scanned, headers only, until it is found).
    /// - Parameter template: the layout; nil: the metadata's `layout`, else found from the first
    ///   entries' paths (`TileTreeLayoutDetection`), with the metadata's `scheme` for the rows.
    /// - Throws: `TileStoreError` when the file is missing, not a tar archive, or damaged.
    public init(location: TileStoreLocation, template: PathTemplate? = nil) throws(TileStoreError) {
        self.location = location
        guard FileManager.default.fileExists(atPath: location.address) else {
            throw TileStoreError(.notFound, store: location.address, message: "no such file")
        }
        let scanner = try TarEntryScanner(path: location.address, template: template ?? .xyz)
        if template == nil { scanner.sampleLimit = TileTreeLayoutDetection.sampleSize }
        var metadata: TileMetadata?
        while let found = try scanner.nextSkippingInvalid() {
            if case .metadata(let size) = found, metadata == nil {
                let data = try scanner.readData(size: size, item: "metadata.json")
                do {
                    metadata = try MetadataJSON.decode(data)
                } catch {
                    throw TileStoreError(.invalidMetadata, store: location.address, item: "entry 'metadata.json'",
                                         message: "not a JSON object: \(error)")
                }
            }
            if let metadata, template != nil || metadata.contains("layout") || scanner.sample.count >= scanner.sampleLimit { break }
        }
        cachedMetadata = metadata ?? TileMetadata()
        if let template {
            self.template = template
            detection = nil
        } else {
            let detected = TileTreeLayoutDetection.choose(metadata: cachedMetadata, sample: scanner.sample, store: location.address)
            self.template = detected.template
            detection = detected
        }
    }

    public var schemaDescription: String { template.text + (detection?.brief.map { " (\($0))" } ?? "") }

    var readerNotes: [String] { detection?.note.map { [$0] } ?? [] }

    /// A layout that reads the skipped entries' paths.
    public func layoutHint(forSkipped skipped: SkippedItems) -> String? {
        let paths = skipped.named.map { item in
            var path = item.item.hasPrefix("entry '") && item.item.hasSuffix("'") ? String(item.item.dropFirst(7).dropLast()) : item.item
            while path.hasPrefix("./") { path.removeFirst(2) }
            return path
        }
        return TileTreeOptions.layoutHint(paths: paths, template: template)
    }
    /// The `.grid.json` entries beside the tiles (`PathTemplate.gridTemplate`), in archive order;
    /// nil when the layout has `{ext}` before its end and so no place for them.
    /// Nil also when a complete pass over the tiles within `filter` met no grid entry.
    public func grids(matching filter: TileFilter) throws -> (any UTFGridCursor)? {
        guard let grids = template.gridTemplate, !gridPresence.isKnownAbsent(within: filter) else { return nil }
        return TarGridCursor(scanner: try TarEntryScanner(path: location.address, template: grids, companion: template),
                             store: location.address, filter: filter)
    }

    public let order = TileOrder.unordered
    public var traits: TileReaderTraits { TileReaderTraits(hasCheapRandomAccess: false) }

    public func metadata() throws -> TileMetadata { cachedMetadata }

    public func tiles(matching filter: TileFilter) throws -> any TileCursor {
        try TarCursor(path: location.address, template: template, filter: filter, grids: gridPresence)
    }

    /// Scans the archive (tar has no index); the last entry for the coordinate wins.
    public func tile(at coordinate: TileCoordinate) throws -> Data? {
        let single = try TileFilter(minZoom: coordinate.z, maxZoom: coordinate.z,
                                    boundingBox: WebMercator.bounds(of: coordinate))
        let cursor = try TarCursor(path: location.address, template: template, filter: single)
        var result: Data?
        while let tile = try cursor.next() {
            if tile.coordinate == coordinate { result = tile.data }
        }
        return result
    }

    /// Reads headers only: one pass, and a second one to size hard-link entries by their targets.
    public func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        var scanner = try TarEntryScanner(path: location.address, template: template, companion: template.gridTemplate)
        var summary = TileSetSummary()
        var links: TarLinkTable?
        while let found = try scanner.nextSkippingInvalid() {
            switch found {
            case .tile(let coordinate, _, let size) where filter.contains(coordinate):
                summary.add(coordinate, size: Int(size ?? 0))
            case .link(let coordinate, let entryPath, let target) where filter.contains(coordinate):
                do {
                    if links == nil { links = try TarLinkTable() }
                    try links?.add(target: target, coordinate: coordinate, entry: entryPath, position: scanner.position)
                } catch {
                    throw TileStoreError(.io, store: location.address, message: "cannot create a temporary table for hard links: \(error)")
                }
            default:
                continue
            }
        }
        gridPresence.record(filter: filter, sawGrids: scanner.companionsSeen > 0)
        guard let links else { return summary }
        scanner = try TarEntryScanner(path: location.address, template: template)
        while let found = try scanner.nextSkippingInvalid() {
            guard case .tile(_, let entryPath, let size) = found else { continue }
            do {
                for coordinate in try links.takeCoordinates(linkingTo: entryPath, at: scanner.position) {
                    summary.add(coordinate, size: Int(size ?? 0))
                }
            } catch {
                throw TileStoreError(.io, store: location.address, message: "cannot read the temporary table for hard links: \(error)")
            }
        }
        return summary
    }

    static func storeError(_ error: ArchiveError, store: String) -> TileStoreError {
        let message = error.message
        if message.contains("Unrecognized archive format") || message.contains("not a tar") {
            return TileStoreError(.notATileStore, store: store, message: "not a tar archive (\(message))")
        }
        return TileStoreError(.corrupt, store: store, item: error.entry.map { "entry '\($0)'" },
                              message: "damaged archive (\(message))", hint: "the file may be truncated; fetch it again")
    }
}
#endif
