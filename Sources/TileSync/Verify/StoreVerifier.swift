import Foundation

/// `verify STORE`: reads every tile and checks what can be checked in that kind of store:
/// SQLite integrity (MBTiles), coordinates in range, no NULL or empty tiles, bytes in the
/// declared format, stored hashes against the bytes (flat-with-hash, and normalized files whose
/// `tile_id`s are MD5s), tiles inside the declared `minzoom`/`maxzoom`/`bounds`, and
/// `agg_tiles_hash` when present. With `fix`, wrong stored hashes and metadata are rewritten
/// (MBTiles in one transaction; a folder's `metadata.json` atomically).
public enum StoreVerifier {
    /// - Throws: `TileStoreError` when the store cannot be opened at all (missing, not a store,
    ///   damaged beyond reading); everything else is a problem in the report.
    public static func verify(_ location: TileStoreLocation, layout: PathTemplate? = nil,
                              fix: Bool = false) throws -> VerificationReport {
        let reader = try TileStores.openReader(location, layout: layout)
        var report = VerificationReport(store: location)
        let mbtiles = reader as? MBTilesReader
        if let mbtiles {
            for line in try MBTilesMaintenance.integrityProblems(mbtiles) {
                report.record(.init(category: .integrity, item: nil, message: line, isFixable: false))
            }
        }
        let metadata = try reader.metadata()
        let summary = try scanTiles(reader, metadata: metadata, report: &report)

        var hashesWrong = false
        if let mbtiles, mbtiles.schema != .flat {
            if mbtiles.schema == .flatWithHash || mbtiles.hasVerifiedStoredHashes {
                let column = mbtiles.schema == .flatWithHash ? "tile_hash" : "tile_id"
                _ = try MBTilesMaintenance.hashMismatches(mbtiles) { mismatch in
                    report.record(.init(category: .storedHash, item: mismatch.item,
                                        message: "\(column) \(mismatch.stored) is not the MD5 of the bytes (\(mismatch.actual.hex))",
                                        isFixable: true))
                }
                hashesWrong = report.counts[.storedHash, default: 0] > 0
            } else {
                report.notes.append("tile_id values are not MD5s of the tile bytes (TileMill-style ids); hashes are computed when needed")
            }
        }

        var metadataFixes = checkMetadata(metadata, summary: summary, sniffed: report.sniffedFormat, report: &report)
        if let declared = metadata["agg_tiles_hash"] {
            let actual = try AggregateHashCalculator.compute(reader)
            if ContentHash(hex: declared) != actual {
                report.record(.init(category: .aggregateHash, item: "metadata agg_tiles_hash",
                                    message: "is \(declared), the tiles give \(actual.hex)", isFixable: true))
                metadataFixes.append(("agg_tiles_hash", actual.hex))
            }
        } else if location.kind == .mbtiles {
            report.notes.append("no agg_tiles_hash in the metadata (--fix adds it)")
            if fix { metadataFixes.append(("agg_tiles_hash", try AggregateHashCalculator.compute(reader).hex)) }
        }
        if fix { try repair(location, reader: reader, metadata: metadata, hashes: hashesWrong, updates: metadataFixes, report: &report) }
        return report
    }

    /// Reads every tile once: invalid tiles, format mismatches, and the per-zoom summary.
    private static func scanTiles(_ reader: any TileReader, metadata: TileMetadata,
                                  report: inout VerificationReport) throws -> TileSetSummary {
        var summary = TileSetSummary()
        let declared = metadata.format
        let cursor = try reader.tiles(matching: .all)
        while true {
            let tile: Tile?
            do {
                tile = try cursor.next()
            } catch let error as TileStoreError where error.kind == .invalidTile {
                report.record(.init(category: .invalidTile, item: error.item, message: error.message, isFixable: false))
                continue
            } catch let error as TileStoreError where error.kind == .corrupt {
                report.record(.init(category: .integrity, item: error.item, message: error.message, isFixable: false))
                break
            }
            guard let tile else { break }
            report.tilesChecked += 1
            summary.add(tile.coordinate, size: tile.data.count)
            let sniffed = SniffedTileFormat(sniffing: tile.data.prefix(16))
            if report.sniffedFormat == nil { report.sniffedFormat = sniffed }
            if let declared, sniffed.format != declared {
                report.record(.init(category: .format, item: "tile \(tile.coordinate)",
                                    message: "is \(sniffed), but the metadata format is \(metadata["format"] ?? "")", isFixable: false))
            }
        }
        return summary
    }

    /// Problems and notes about `minzoom`, `maxzoom`, `bounds`, `format`; returns the values
    /// `--fix` would set.
    private static func checkMetadata(_ metadata: TileMetadata, summary: TileSetSummary, sniffed: SniffedTileFormat?,
                                      report: inout VerificationReport) -> [(String, String)] {
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

    /// True when the zoom's tile extent lies in the tiles that touch `bounds`.
    private static func isInside(_ zoom: TileSetSummary.Zoom, bounds: BoundingBox) -> Bool {
        let allowed = (try? WebMercator.tileRanges(covering: bounds, zoom: zoom.z)) ?? []
        let columnsInside = [zoom.columns.lowerBound, zoom.columns.upperBound].allSatisfy { x in
            allowed.contains { $0.columns.contains(x) }
        }
        let rowsInside = allowed.contains { $0.rows.contains(zoom.rows.lowerBound) && $0.rows.contains(zoom.rows.upperBound) }
        return columnsInside && rowsInside
    }

    private static func repair(_ location: TileStoreLocation, reader: any TileReader, metadata: TileMetadata, hashes: Bool,
                               updates: [(String, String)], report: inout VerificationReport) throws {
        guard hashes || !updates.isEmpty else { return }
        switch location.kind {
        case .mbtiles:
            guard let mbtiles = reader as? MBTilesReader else { return }
            try MBTilesMaintenance.repair(path: location.path, schema: mbtiles.schema, fixHashes: hashes, metadata: updates)
            if hashes {
                report.fixes.append("rewrote \(report.counts[.storedHash, default: 0]) stored hashes")
                report.clear(.storedHash)
            }
        case .directory:
            guard !updates.isEmpty else { return }
            var fixed = metadata
            for (key, value) in updates { fixed[key] = value }
            let path = location.path + "/metadata.json"
            let temporary = AtomicFile.temporaryPath(beside: path)
            do {
                try FileBytes.write(MetadataJSON.encode(fixed), to: temporary)
                try AtomicFile.rename(temporary, to: path)
            } catch {
                AtomicFile.remove(temporary)
                throw error.storeError(store: location.path, item: "metadata.json")
            }
        case .tar:
            report.notes.append("a tar archive is not repaired in place; convert it to a new archive, which writes correct metadata")
            return
        }
        for (key, value) in updates { report.fixes.append("set \(key) = \(value)") }
        report.clear(.metadata)
        report.clear(.aggregateHash)
    }
}
