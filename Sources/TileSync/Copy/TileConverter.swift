import Foundation

/// Streams tiles from any reader to any writer in bounded memory: one tile in flight, bytes
/// unchanged, metadata carried across with the missing `minzoom`, `maxzoom`, `bounds` and
/// `format` filled in from the tiles. Each tile is hashed once (MD5) as it passes, to count
/// distinct blobs and to let deduplicating destinations store each blob once.
public enum TileConverter {
    /// Copies the tiles of `source` that pass the filter into a new store at `destination`.
    /// - Parameter progress: called after each tile (on the calling thread).
    /// - Returns: counts, skipped items, warnings and timing.
    /// - Throws: `TileStoreError`: `.sameSourceAndDestination`, `.destinationExists`, any read
    ///   error (per-tile ones only without `skipInvalid`), `.io`, `.interrupted`. On error the
    ///   destination is as it was.
    public static func convert(from source: TileStoreLocation, to destination: TileStoreLocation,
                               options: ConversionOptions = ConversionOptions(),
                               progress: ((ConversionProgress) -> Void)? = nil) throws -> ConversionSummary {
        try convert(from: source, to: destination, options: options, progress: progress, written: nil)
    }

    /// `convert(from:to:options:progress:)`, calling `written` with each tile after it is written.
    static func convert(from source: TileStoreLocation, to destination: TileStoreLocation, options: ConversionOptions,
                        progress: ((ConversionProgress) -> Void)?, written: ((Tile) -> Void)?) throws -> ConversionSummary {
        let started = Date()
        try refuseSameStore(source, destination)
        AtomicFile.removeStaleTemporaries(of: destination.path)
        let reader = try TileStores.openReader(source, layout: options.sourceLayout)
        reader.setCancellation(options.isCancelled)
        let sourceMetadata = try reader.metadata()
        var summary = ConversionSummary(source: source, destination: destination)

        let cursor = try reader.tiles(matching: options.filter,
                                      preferring: destination.kind == .mbtiles ? .zoomColumnTMSRow : .zoomColumnRow)
        let first = try nextTile(cursor, skipInvalid: options.skipInvalid, invalidTiles: &summary.invalidTiles)
        summary.sniffedFormat = first.map { SniffedTileFormat(sniffing: $0.data) }

        let prepared = try prepareMetadata(reader, metadata: sourceMetadata, filter: options.filter,
                                           sniffed: summary.sniffedFormat, destination: destination)
        let tileSummary = prepared.summary
        let metadata = prepared.metadata
        let fileExtension = prepared.fileExtension
        summary.warnings += prepared.warnings
        summary.metadata = metadata

        let writer = try TileStores.makeWriter(destination, layout: options.destinationLayout,
                                               fileExtension: fileExtension, mbtilesSchema: options.mbtilesSchema,
                                               deduplicate: options.deduplicate,
                                               preservesModificationTimes: options.preservesModificationTimes,
                                               overwrite: options.overwrite)
        summary.destinationDeduplicates = destination.kind == .mbtiles
            ? options.mbtilesSchema == .normalized : options.deduplicate
        let repeatsCoordinates = reader.order == .unordered
        var previous: TileCoordinate?
        var repeated = SkippedItems()
        do {
            let blobs: DedupIndex
            do {
                blobs = try DedupIndex()
            } catch {
                throw TileStoreError(.io, store: destination.path, message: "cannot create a temporary index of blobs: \(error)")
            }
            // A destination that stores hashes gets each tile's MD5 from the prefetching thread.
            let needsHashes = summary.destinationDeduplicates || (destination.kind == .mbtiles && options.mbtilesSchema != .flat)
            // Folders and tars link a repeat to the first tile with its bytes, so they look each
            // blob up as it comes; an MBTiles keyed by hash ignores a repeated blob by itself, and
            // the counts come from the second thread.
            let needsOriginals = summary.destinationDeduplicates && destination.kind != .mbtiles
            let counter = needsOriginals ? nil : BlobCounter(index: blobs, repeatsCoordinates: repeatsCoordinates)
            defer { _ = try? counter?.finish() }
            try writer.begin(metadata: metadata)
            var mismatched = SkippedItems()
            let expected = summary.sniffedFormat
            var invalidTiles = summary.invalidTiles
            let prefetcher = TilePrefetcher(hashes: needsHashes) {
                try nextTile(cursor, skipInvalid: options.skipInvalid, invalidTiles: &invalidTiles)
            }
            defer { prefetcher.stop() }
            var next = first.map { ($0, needsHashes ? ContentHash(of: $0.data) : ContentHash.unknown) }
            while let (current, hash) = next {
                if options.isCancelled() {
                    throw TileStoreError(.interrupted, store: destination.path, message: "interrupted; the destination was not changed")
                }
                if let expected {
                    let sniffed = SniffedTileFormat(sniffing: current.data)
                    if sniffed != expected { mismatched.record("tile \(current.coordinate)", reason: sniffed.description) }
                }
                if let counter {
                    counter.add(current, key: needsHashes ? hash : nil)
                    try writer.write(current, hash: hash, duplicateOf: nil)
                } else {
                    var original: TileCoordinate?
                    do {
                        if repeatsCoordinates ? try blobs.wasSeen(current.coordinate) : previous == current.coordinate {
                            repeated.record("tile \(current.coordinate)", reason: "appears again")
                            try blobs.forget(current.coordinate)
                        }
                        original = try blobs.original(of: hash, recording: current.coordinate)
                    } catch {
                        throw TileStoreError(.io, store: destination.path, message: "temporary index of blobs failed: \(error)")
                    }
                    if original == current.coordinate { original = nil }
                    if original != nil {
                        summary.duplicateTiles += 1
                        summary.duplicateBytes += current.data.count
                    }
                    try writer.write(current, hash: hash, duplicateOf: original)
                }
                written?(current)
                previous = current.coordinate
                summary.tilesWritten += 1
                summary.bytesWritten += current.data.count
                progress?(ConversionProgress(tilesDone: summary.tilesWritten, bytesDone: summary.bytesWritten,
                                             tilesTotal: tileSummary?.tileCount))
                next = try prefetcher.next()
            }
            prefetcher.stop()
            summary.invalidTiles = invalidTiles
            if let expected, mismatched.count > 0 {
                let firstNamed = mismatched.named.first.map { " (first: \($0.item) is \($0.reason))" } ?? ""
                summary.warnings.append("\(mismatched.count) tiles are not \(expected) like the first tile\(firstNamed); "
                    + "their files still use the .\(fileExtension) extension")
            }
            if let counter {
                do {
                    let counts = try counter.finish()
                    summary.duplicateTiles = counts.duplicateTiles
                    summary.duplicateBytes = counts.duplicateBytes
                    repeated = counts.repeated
                } catch {
                    throw TileStoreError(.io, store: destination.path, message: "temporary index of blobs failed: \(error)")
                }
            }
            if let first = repeated.named.first {
                summary.warnings.append("\(repeated.count) tiles repeat a coordinate that came earlier in \(source.path); "
                    + "the last one wins (first: \(first.item))")
            }
            summary.nonTiles = cursor.skipped
            try writer.finish()
        } catch {
            writer.abort()
            throw error
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// The metadata a destination gets, the `{ext}` of its files, warnings, and the summary
    /// read to fill the metadata (nil when the source's own metadata sufficed).
    struct PreparedMetadata {
        let metadata: TileMetadata
        let fileExtension: String
        let warnings: [String]
        let summary: TileSetSummary?
    }

    static func prepareMetadata(_ reader: any TileReader, metadata sourceMetadata: TileMetadata, filter: TileFilter,
                                sniffed: SniffedTileFormat?, destination: TileStoreLocation) throws -> PreparedMetadata {
        let needsSummary = filter != .all || reader.location.kind == .mbtiles
            || sourceMetadata.minZoom == nil || sourceMetadata.maxZoom == nil || sourceMetadata.bounds == nil
        let tileSummary = needsSummary ? try reader.summary(matching: filter, countingBytes: false) : nil
        var warnings: [String] = []
        var metadata = filledMetadata(sourceMetadata, summary: tileSummary, filter: filter,
                                      sniffed: sniffed, warnings: &warnings, source: reader.location)
        if destination.kind == .mbtiles { metadata["scheme"] = nil }
        let fileExtension = sniffed?.format.fileExtension ?? sourceMetadata.format?.fileExtension ?? "bin"
        return PreparedMetadata(metadata: metadata, fileExtension: fileExtension, warnings: warnings, summary: tileSummary)
    }

    private static func nextTile(_ cursor: any TileCursor, skipInvalid: Bool,
                                 invalidTiles: inout SkippedItems) throws -> Tile? {
        while true {
            do {
                return try cursor.next()
            } catch let error as TileStoreError where error.kind == .invalidTile && skipInvalid {
                invalidTiles.record(error.item ?? error.store, reason: error.message)
            }
        }
    }

    /// Source metadata with `minzoom`, `maxzoom`, `bounds` and `format` filled in where missing
    /// or narrowed by the filter; every other key kept as it is.
    static func filledMetadata(_ source: TileMetadata, summary: TileSetSummary?, filter: TileFilter,
                               sniffed: SniffedTileFormat?, warnings: inout [String],
                               source location: TileStoreLocation) -> TileMetadata {
        var metadata = source
        for key in ["minzoom", "maxzoom"] where metadata[key] != nil && (key == "minzoom" ? metadata.minZoom : metadata.maxZoom) == nil {
            if let value = key == "minzoom" ? summary?.minZoom : summary?.maxZoom {
                warnings.append("\(location.path): metadata \(key) '\(metadata[key] ?? "")' is not a zoom level 0-30; "
                    + "written as \(value), from the tiles")
            }
        }
        if let text = metadata["bounds"], metadata.bounds == nil, let computed = summary?.bounds {
            warnings.append("\(location.path): metadata bounds '\(text)' is not W,S,E,N in degrees; written as \(computed), from the tiles")
        }
        let filtered = filter != .all
        if let summary, let minZoom = summary.minZoom, let maxZoom = summary.maxZoom {
            if metadata.minZoom == nil || filtered { metadata["minzoom"] = String(minZoom) }
            if metadata.maxZoom == nil || filtered { metadata["maxzoom"] = String(maxZoom) }
        }
        if metadata.bounds == nil || filter.boundingBox != nil {
            let fromTiles = summary?.bounds
            if let box = filter.boundingBox {
                let clipped = (metadata.bounds ?? fromTiles).flatMap { box.intersection($0) } ?? box
                metadata["bounds"] = clipped.description
            } else if let fromTiles {
                metadata["bounds"] = fromTiles.description
            }
        }
        if let sniffed {
            let sniffedName = sniffed.format.rawValue
            if let declaredText = source["format"] {
                if let declared = TileFormat(declared: declaredText), declared != sniffed.format {
                    warnings.append("\(location.path): metadata format is '\(declaredText)' but the tiles are \(sniffed); "
                        + "the metadata was kept, set format=\(sniffedName) in the source to fix it")
                } else if TileFormat(declared: declaredText) == nil {
                    warnings.append("\(location.path): metadata format '\(declaredText)' is not a known tile format; the tiles are \(sniffed)")
                }
            } else {
                metadata["format"] = sniffedName
            }
        }
        return metadata
    }

    /// Refuses to convert a store into itself (also through another path to the same file).
    static func refuseSameStore(_ source: TileStoreLocation, _ destination: TileStoreLocation) throws(TileStoreError) {
        var a = stat(), b = stat()
        let sameInode = stat(source.path, &a) == 0 && stat(destination.path, &b) == 0
            && a.st_dev == b.st_dev && a.st_ino == b.st_ino
        if sameInode || source.path == destination.path {
            throw TileStoreError(.sameSourceAndDestination, store: destination.path,
                                 message: "is the same store as the source \(source.path)",
                                 hint: "choose another destination")
        }
    }
}
