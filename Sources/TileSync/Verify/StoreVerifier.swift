import Foundation

/// `verify STORE`: reads every tile and checks what can be checked in that kind of store:
/// the store's own integrity check (SQLite's, for MBTiles), coordinates in range, no NULL or
/// empty tiles, bytes in the declared format, stored hashes against the bytes (where the
/// store keeps MD5s), tiles inside the declared `minzoom`/`maxzoom`/`bounds`, and
/// `agg_tiles_hash` when present (or expected: stores that maintain one); with `deep`, each
/// tile's content decoded (`TileContentCheck`: vector tiles against the MVT 2.1 specification,
/// raster tiles to their pixels) on every core. With `fix`, wrong
/// stored hashes and metadata are rewritten through the store's updater when it changes in
/// place (MBTiles in one transaction; a folder's `metadata.json` through its journal).
public enum StoreVerifier {
    /// - Throws: `TileStoreError` when the store cannot be opened at all (missing, not a store,
    ///   damaged beyond reading); everything else is a problem in the report.
    /// - Parameters:
    ///   - progress: called with the number of tiles checked so far, every 4,096 tiles.
    ///   - isCancelled: polled between tiles and inside long SQLite queries; true stops the check
    ///     with `TileStoreError` `.interrupted` (nothing is fixed then).
    ///   - deep: decode every tile's content (vector tiles, JSON, PNG, JPEG, WebP) and report
    ///     each that does not decode as a `.content` problem.
    ///   - onProblem: hears every problem as it is found, also those past
    ///     `Report.keptPerCategory` that the report only counts (a deep check of a damaged store
    ///     names each bad tile so, in bounded memory).
    ///   - limits: a store that says it holds more than `limits.maxTiles` tiles is refused with
    ///     `.limitExceeded` before its tiles are read (its structure is still checked first).
    public static func verify(_ location: TileStoreLocation, fix: Bool = false, deep: Bool = false,
                              limits: TileAmountLimits = TileAmountLimits(),
                              progress: ((Int) -> Void)? = nil, onProblem: (@Sendable (StoreVerifier.Problem) -> Void)? = nil,
                              isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> StoreVerifier.Report {
        do {
            return try run(location, fix: fix, deep: deep, limits: limits, progress: progress, onProblem: onProblem,
                           isCancelled: isCancelled)
        } catch {
            throw TileStoreError(wrapping: error, store: location.address)
        }
    }

    private static func run(_ location: TileStoreLocation, fix: Bool, deep: Bool, limits: TileAmountLimits, progress: ((Int) -> Void)?,
                            onProblem: (@Sendable (StoreVerifier.Problem) -> Void)?,
                            isCancelled: @escaping @Sendable () -> Bool) throws -> StoreVerifier.Report {
        let reader = try location.openReader()
        reader.setCancellation(isCancelled)
        var report = StoreVerifier.Report(store: location)
        report.onProblem = onProblem
        for line in try reader.roles.integrity?.integrityProblems() ?? [] {
            report.record(.init(category: .integrity, item: nil, message: line, isFixable: false))
        }
        for line in try reader.roles.integrity?.integrityWarnings() ?? [] {
            report.record(.init(category: .metadata, item: nil, message: line, isFixable: false))
        }
        do {
            _ = try TileAmountCheck.count(reader, filter: .all, limits: limits)
        } catch let error as TileStoreError where error.kind == .limitExceeded && !report.isClean {
            report.notes.append("its tiles were not read: it \(error.message)")
            return report
        } catch where !report.isClean {
            report.notes.append("its tiles were not read: the damage keeps them from being counted")
            return report
        }
        let metadata = try reader.metadata()
        let content = deep ? TileContentCheck(declared: try reader.declaredTileCompression(), declaredFormat: metadata.format) : nil
        if deep, !RasterReencoder.isAvailable { report.notes.append("PNG, JPEG and WebP tiles are not decoded: this build has no raster codecs") }
        if deep, metadata.format == .mlt { report.notes.append("MapLibre Tiles are not decoded: only their compression is checked") }
        let summary = try scanTiles(reader, metadata: metadata, content: content, report: &report, progress: progress,
                                    isCancelled: isCancelled)
        try checkGrids(reader, report: &report, isCancelled: isCancelled)
        let hashesWrong = try checkStoredHashes(reader, report: &report)
        var metadataFixes = checkMetadata(metadata, summary: summary, sniffed: report.sniffedFormat, report: &report)
        if let declared = metadata["agg_tiles_hash"] {
            let actual = try reader.aggregateHash()
            if ContentHash(hex: declared) != actual {
                report.record(.init(category: .aggregateHash, item: "metadata agg_tiles_hash",
                                    message: "is \(declared), the tiles give \(actual.hex)", isFixable: true))
                metadataFixes.append(("agg_tiles_hash", actual.hex))
            }
        } else if location.kind.capabilities.maintainsAggregateHash {
            report.notes.append("no agg_tiles_hash in the metadata (--fix adds it)")
            if fix { metadataFixes.append(("agg_tiles_hash", try reader.aggregateHash().hex)) }
        }
        if fix { try repair(location, metadata: metadata, hashes: hashesWrong, updates: metadataFixes, report: &report) }
        return report
    }

    /// Reads every UTFGrid once: each that is not a grid object is an invalid-tile problem.
    private static func checkGrids(_ reader: any TileReader, report: inout StoreVerifier.Report,
                                   isCancelled: @escaping @Sendable () -> Bool) throws {
        guard let grids = try reader.grids(matching: .all) else { return }
        while true {
            if isCancelled() { throw TileStoreError(.interrupted, store: reader.location.address, message: "interrupted") }
            do {
                guard try grids.next() != nil else { return }
                report.gridsChecked += 1
            } catch let error as TileStoreError where error.kind == .invalidTile {
                report.record(.init(category: .invalidTile, item: error.item, message: error.message, isFixable: false))
            }
        }
    }

    /// Reports stored hashes that are not the MD5 of their bytes; true when there are any.
    private static func checkStoredHashes(_ reader: any TileReader, report: inout StoreVerifier.Report) throws -> Bool {
        guard let checker = reader.roles.storedHashes, let stored = checker.storedHashes else { return false }
        guard stored.areMD5s else {
            if let note = stored.note { report.notes.append(note) }
            return false
        }
        var found: [StoredHashMismatch] = []
        try checker.storedHashMismatches { mismatch in found.append(mismatch) }
        for mismatch in found {
            report.record(.init(category: .storedHash, item: mismatch.item,
                                message: "\(stored.name) \(mismatch.stored) is not the MD5 of the bytes (\(mismatch.actual.hex))",
                                isFixable: true))
        }
        return !found.isEmpty
    }

    /// Reads every tile once: invalid tiles, format mismatches, and the per-zoom summary; with
    /// `content`, the tiles' content in batches decoded on every core.
    private static func scanTiles(_ reader: any TileReader, metadata: TileMetadata, content: TileContentCheck?,
                                  report: inout StoreVerifier.Report,
                                  progress: ((Int) -> Void)?, isCancelled: () -> Bool) throws -> TileSetSummary {
        var summary = TileSetSummary()
        var batch = TileContentBatch()
        let declared = metadata.format
        let declaredCompression = try reader.declaredTileCompression()
        let cursor = try reader.tiles(matching: .all)
        while true {
            let tile: Tile?
            do {
                tile = try cursor.next()
            } catch let error as TileStoreError where error.kind == .invalidTile {
                report.record(.init(category: .invalidTile, item: error.item, message: error.message, isFixable: false))
                continue
            } catch let error as TileStoreError where error.kind == .corrupt {
                let problem = StoreVerifier.Problem(category: .integrity, item: error.item, message: error.message, isFixable: false)
                if !report.problems.contains(where: { $0.description == problem.description }) { report.record(problem) }
                break
            }
            guard let tile else { break }
            report.tilesChecked += 1
            if report.tilesChecked % 4096 == 0 {
                if isCancelled() { throw TileStoreError(.interrupted, store: reader.location.address, message: "interrupted") }
                progress?(report.tilesChecked)
            }
            summary.add(tile.coordinate, size: tile.data.count)
            if let content, batch.add(tile) { batch.check(with: content, into: &report) }
            let sniffed = SniffedTileFormat(sniffing: tile.data.prefix(16), declaredCompression: declaredCompression,
                                            declaredFormat: declared)
            if report.sniffedFormat == nil { report.sniffedFormat = sniffed }
            if let declared, sniffed.format != declared, !isVectorTileToBe(sniffed, tile: tile, declared: declared, content: content) {
                let hint = sniffed.format == .unknown && declared == .pbf && declaredCompression == nil ? " (\(SniffedTileFormat.brotliHint))" : ""
                report.record(.init(category: .format, item: "tile \(tile.coordinate)",
                                    message: "is \(sniffed), but the metadata format is \(metadata["format"] ?? "")\(hint)", isFixable: false))
            }
        }
        if let content { batch.check(with: content, into: &report) }
        return summary
    }

    /// True for bytes of no known format in a store of vector tiles that `content` decodes later
    /// or (without it) whose top level reads as a vector tile: one may begin with a field other
    /// than a layer.
    private static func isVectorTileToBe(_ sniffed: SniffedTileFormat, tile: Tile, declared: TileFormat,
                                         content: TileContentCheck?) -> Bool {
        guard sniffed.format == .unknown, declared == .pbf else { return false }
        if let content { return content.decodesUnknownBytes }
        return tile.data.withUnsafeBytes { VectorLayerScanner.readsAsTile($0) }
    }

    /// Problems and notes about `minzoom`, `maxzoom`, `bounds`, `format`; returns the values
    /// `--fix` would set.
    private static func checkMetadata(_ metadata: TileMetadata, summary: TileSetSummary, sniffed: SniffedTileFormat?,
                                      report: inout StoreVerifier.Report) -> [(String, String)] {
        var fixes: [(String, String)] = []
        guard let minPresent = summary.minZoom, let maxPresent = summary.maxZoom else { return fixes }
        for (key, present, isLow) in [("minzoom", minPresent, true), ("maxzoom", maxPresent, false)] {
            guard let text = metadata[key] else {
                report.notes.append("no \(key) in the metadata (--fix sets \(present))")
                fixes.append((key, String(present)))
                continue
            }
            guard let declared = isLow ? metadata.minZoom : metadata.maxZoom else {
                report.record(.init(category: .metadata, item: "metadata \(key)", message: "'\(text)' is not a zoom level 0-30", isFixable: true))
                fixes.append((key, String(present)))
                continue
            }
            if isLow ? present < declared : present > declared {
                report.record(.init(category: .metadata, item: "metadata \(key)",
                                    message: "is \(declared), but there are tiles at zoom \(present)", isFixable: true))
                fixes.append((key, String(present)))
            }
        }
        if let text = metadata["bounds"] {
            if let bounds = metadata.bounds {
                let outside = summary.zooms.filter { !isInside($0, bounds: bounds) }
                if let first = outside.first {
                    report.record(.init(category: .metadata, item: "metadata bounds",
                                        message: "\(text) does not hold the tiles at zoom \(first.z) (x \(first.columns.lowerBound)-\(first.columns.upperBound), y \(first.rows.lowerBound)-\(first.rows.upperBound))",
                                        isFixable: true))
                    if let union = summary.bounds.map({ bounds.union($0) }) { fixes.append(("bounds", union.description)) }
                }
            } else {
                report.record(.init(category: .metadata, item: "metadata bounds", message: "'\(text)' is not W,S,E,N in degrees", isFixable: true))
                if let computed = summary.bounds { fixes.append(("bounds", computed.description)) }
            }
        } else if let computed = summary.bounds {
            report.notes.append("no bounds in the metadata (--fix sets \(computed))")
            fixes.append(("bounds", computed.description))
        }
        if metadata["format"] == nil, let sniffed {
            report.notes.append("no format in the metadata (--fix sets \(sniffed.format.rawValue))")
            fixes.append(("format", sniffed.format.rawValue))
        }
        return fixes
    }

    /// True when the zoom's tile extent lies in the tiles that overlap or touch `bounds` (bounds
    /// often end on a tile edge: the tile beyond only touches them, and validators accept it).
    private static func isInside(_ zoom: TileSetSummary.Zoom, bounds: BoundingBox) -> Bool {
        let slack = 360 / Double(1 << zoom.z) / 1000
        let widened = BoundingBox(uncheckedWest: max(-180, bounds.west - slack), south: max(-90, bounds.south - slack),
                                  east: min(180, bounds.east + slack), north: min(90, bounds.north + slack))
        let allowed = (try? WebMercator.tileRanges(covering: widened, zoom: zoom.z)) ?? []
        let columnsInside = [zoom.columns.lowerBound, zoom.columns.upperBound].allSatisfy { x in
            allowed.contains { $0.columns.contains(x) }
        }
        let rowsInside = allowed.contains { $0.rows.contains(zoom.rows.lowerBound) && $0.rows.contains(zoom.rows.upperBound) }
        return columnsInside && rowsInside
    }

    /// Rewrites wrong stored hashes and sets metadata through the store's updater, when the
    /// store changes in place; a store that is rewritten whole gets a note instead.
    private static func repair(_ location: TileStoreLocation, metadata: TileMetadata, hashes: Bool,
                               updates: [(String, String)], report: inout StoreVerifier.Report) throws {
        guard hashes || !updates.isEmpty else { return }
        guard location.kind.capabilities.updates == .inPlace else {
            report.notes.append("a \(location.kind.displayName) is not repaired in place; convert it to a new one, which writes correct metadata")
            return
        }
        var fixed = metadata
        for (key, value) in updates { fixed[key] = value }
        let updater = try location.makeUpdater()
        do {
            try updater.begin(metadata: fixed)
            if hashes { try updater.rebuildStoredHashes() }
            try updater.finish()
        } catch {
            updater.abort()
            throw error
        }
        if hashes {
            report.fixes.append("rewrote \(report.counts[.storedHash, default: 0]) stored hashes")
            report.clear(.storedHash)
        }
        for (key, value) in updates { report.fixes.append("set \(key) = \(value)") }
        report.clear(.metadata)
        report.clear(.aggregateHash)
    }
}
