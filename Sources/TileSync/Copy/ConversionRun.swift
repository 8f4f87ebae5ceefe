import Foundation

/// One conversion in progress: the source cursor (read ahead on a prefetching thread), the
/// writer, and the blob bookkeeping the writer asked for (a lookup of repeats for writers that
/// link them, else distinct-blob counting on a thread of its own).
final class ConversionRun {
    private let reader: any TileReader
    private let writer: any TileWriter
    private let options: TileConverter.Options
    private let progress: ((TileConverter.Progress) -> Void)?
    private let written: ((Tile) -> Void)?
    private let cursor: any TileCursor
    private let blobs: DedupIndex
    /// The writer links repeats to their first coordinate (else it counts them itself).
    private let linksRepeats: Bool
    /// The writer reads the tiles' bytes from the source again at `finish()` (which must then
    /// run inside the source's `withConsistentReads`, as the copy does).
    let rereadsSource: Bool
    private var summary: TileConverter.Summary
    private var mismatched = SkippedItems()
    private var repeated = SkippedItems()
    private var previous: TileCoordinate?
    private let rewriter: TileRewriter?
    /// What the rewriter did (counted on the prefetching thread).
    private let rewriteTally = LockedRewriteTally()
    /// Raster re-encodings of contents that repeat, made once.
    private let repeats: RepeatedRewrites?

    init(reader: any TileReader, writer: any TileWriter, options: TileConverter.Options,
         progress: ((TileConverter.Progress) -> Void)?, written: ((Tile) -> Void)?) throws {
        self.reader = reader
        self.writer = writer
        self.options = options
        self.progress = progress
        self.written = written
        summary = TileConverter.Summary(source: reader.location, destination: writer.location)
        summary.destinationDeduplicates = writer.deduplication != .none
        linksRepeats = writer.deduplication == .linksRepeats
        cursor = try reader.tiles(matching: options.filter, preferring: writer.preferredOrder)
        rewriter = try TileRewriter(settings: options.transforms, reader: reader)
        repeats = rewriter == nil ? nil : RepeatedRewrites()
        if rewriter == nil, let rereads = writer.abilities.rereadsBlobs, let source = reader.roles.rereadSource {
            rereads(source.rereader)
            rereadsSource = true
        } else {
            rereadsSource = false
        }
        do {
            blobs = try DedupIndex()
        } catch {
            throw TileStoreError(.io, store: writer.location.address, message: "cannot create a temporary index of blobs: \(error)")
        }
    }

    /// Streams every tile into the writer (which the caller then finishes).
    /// - Returns: the summary without its duration.
    func copy(sourceMetadata: TileMetadata) throws -> TileConverter.Summary {
        let first = try firstTile()
        let declared = try rewriter?.targetCompression ?? reader.declaredTileCompression()
        let declaredFormat = rewriter?.targetFormat ?? sourceMetadata.format
        summary.sniffedFormat = first.map { SniffedTileFormat(sniffing: $0.data, declaredCompression: declared, declaredFormat: declaredFormat) }
        var metadata = sourceMetadata
        rewriter?.adjust(&metadata)
        // Every part of a sharded run writes the metadata of the whole run.
        let prepared = try PreparedMetadata.prepare(reader, metadata: metadata, filter: options.filter.withoutShard,
                                                    sniffed: summary.sniffedFormat, wantsTileCount: progress != nil)
        summary.warnings += prepared.warnings
        summary.uncarried = try reader.roles.inspection?.uncarriedContent() ?? []
        summary.warnings += summary.uncarried.map {
            UncarriedContent.warning($0, source: reader.location.address, destination: writer.location.address)
        }
        summary.metadata = prepared.metadata
        let counter = writer.deduplication == .linksRepeats || writer.abilities.countsRepeats
            ? nil : BlobCounter(index: blobs, repeatsCoordinates: reader.order == .unordered)
        defer { _ = try? counter?.finish() }
        try writer.begin(metadata: prepared.metadata, format: prepared.format)
        try stream(from: first, counter: counter, total: options.filter.shard == nil ? prepared.summary?.tileCount : nil)
        summary.notes = reader.notes + (rewriter?.notes() ?? [])
        try copyGrids()
        if let expected = summary.sniffedFormat, let firstNamed = mismatched.named.first {
            summary.warnings.append("\(mismatched.count) tiles are not \(expected) like the first tile "
                + "(the first of them: \(firstNamed.item) is \(firstNamed.reason)); they are stored as they are")
        }
        let tally = rewriteTally.value
        if tally.rasterPassed > 0 {
            summary.warnings.append("\(tally.rasterPassed) raster tiles were stored as they are: --compress applies to vector tiles")
        }
        if rewriter?.reencodesRaster == true { summary.rasterReencoding = tally.raster }
        summary.tilesWithoutLayers = tally.withoutLayers
        if let counter { try takeCounts(from: counter) }
        if let warning = Self.repeatedWarning(repeated, source: reader.location.address) { summary.warnings.append(warning) }
        summary.nonTiles = cursor.skipped
        if summary.tilesWritten == 0, summary.invalidTiles.count == 0, cursor.skipped.count > 0, options.filter.isEverything {
            throw NoTilesFound.error(source: reader, skipped: cursor.skipped)
        }
        return summary
    }

    /// Writes the source's UTFGrids after its tiles, or counts them into one warning when the
    /// destination keeps none.
    private func copyGrids() throws {
        guard let grids = try reader.grids(matching: options.filter) else { return }
        var invalid = summary.invalidTiles
        defer { summary.invalidTiles = invalid }
        var left = 0
        while let grid = try TileConverter.nextGrid(grids, skipInvalid: options.skipInvalid, invalid: &invalid) {
            if options.isCancelled() {
                throw TileStoreError(.interrupted, store: writer.location.address, message: "interrupted; the destination was not changed")
            }
            guard writer.acceptsGrids else {
                left += 1
                continue
            }
            try writer.write(grid: grid)
            summary.gridsWritten += 1
        }
        if left > 0 {
            let uncarried = UncarriedContent.grids(left, destinationKind: writer.location.kind.displayName)
            summary.uncarried.append(uncarried)
            summary.warnings.append(UncarriedContent.warning(uncarried, source: reader.location.address, destination: writer.location.address))
        }
    }

    /// Takes the counts of a writer that finds repeats itself, after it finished.
    static func takeCounts(of writer: any TileWriter, into summary: inout TileConverter.Summary) {
        guard let counts = writer.abilities.repeatCounts?() else { return }
        summary.duplicateTiles = counts.duplicateTiles
        summary.duplicateBytes = counts.duplicateBytes
        if let warning = repeatedWarning(counts.repeated, source: summary.source.address) { summary.warnings.append(warning) }
    }

    private static func repeatedWarning(_ repeated: SkippedItems, source: String) -> String? {
        guard let first = repeated.named.first else { return nil }
        return "\(repeated.count) tiles repeat a coordinate that came earlier in \(source); the last one wins (first: \(first.item))"
    }

    private func stream(from first: Tile?, counter: BlobCounter?, total: Int?) throws {
        let needsHashes = writer.wantsHashes
        var invalidTiles = summary.invalidTiles
        let transform = rewriter.map { rewriter in
            { [options, rewriteTally, repeats] (tiles: [Tile]) throws -> [Tile] in
                var tally = TileRewriteTally()
                defer { rewriteTally.add(tally) }
                return try rewriter.rewrite(tiles, skipInvalid: options.skipInvalid, invalid: &invalidTiles, tally: &tally, repeats: repeats)
            }
        }
        // A writer that only records each tile (PMTiles) leaves a core to hashing; one that does
        // real work per tile (SQLite inserts, files) would lose it to a third busy thread.
        let prefetcher = TilePrefetcher(hashes: needsHashes, hashingThread: writer.abilities.countsRepeats,
                                        transform: transform) { [cursor, options] in
            try TileConverter.nextTile(cursor, skipInvalid: options.skipInvalid, invalidTiles: &invalidTiles)
        }
        defer { prefetcher.stop() }
        var next = first.map { ($0, needsHashes ? ContentHash(of: $0.data) : ContentHash.unknown) }
        while let (tile, hash) = next {
            if options.isCancelled() {
                throw TileStoreError(.interrupted, store: writer.location.address, message: "interrupted; the destination was not changed")
            }
            try write(tile, hash: hash, counter: counter)
            progress?(TileConverter.Progress(tilesDone: summary.tilesWritten, bytesDone: summary.bytesWritten, tilesTotal: total,
                                         placesDone: reader.roles.downloadKeeping?.placesSettled))
            next = try prefetcher.next()
        }
        prefetcher.stop()
        summary.invalidTiles = invalidTiles
    }

    /// The first valid tile, rewritten when asked (invalid ones skipped with `skipInvalid`,
    /// dropped ones passed over).
    private func firstTile() throws -> Tile? {
        while let tile = try TileConverter.nextTile(cursor, skipInvalid: options.skipInvalid, invalidTiles: &summary.invalidTiles) {
            guard let rewriter else { return tile }
            var tally = TileRewriteTally()
            let done = try rewriter.rewrite([tile], skipInvalid: options.skipInvalid, invalid: &summary.invalidTiles, tally: &tally,
                                            repeats: repeats)
            rewriteTally.add(tally)
            if let first = done.first { return first }
        }
        return nil
    }

    private func write(_ tile: Tile, hash: ContentHash, counter: BlobCounter?) throws {
        if let expected = summary.sniffedFormat, expected.compression != .brotli, expected.format != .mlt {
            let sniffed = SniffedTileFormat(sniffing: tile.data)
            if sniffed != expected { mismatched.record("tile \(tile.coordinate)", reason: sniffed.description) }
        }
        if let counter {
            counter.add(tile, key: writer.wantsHashes ? hash : nil)
            try writer.write(tile, hash: hash, duplicateOf: nil)
        } else if linksRepeats {
            let original = try originalTile(of: tile, hash: hash)
            if original != nil {
                summary.duplicateTiles += 1
                summary.duplicateBytes += tile.data.count
            }
            try writer.write(tile, hash: hash, duplicateOf: original)
        } else {
            try writer.write(tile, hash: hash, duplicateOf: nil)
        }
        written?(tile)
        previous = tile.coordinate
        summary.tilesWritten += 1
        summary.bytesWritten += tile.data.count
    }

    /// The first coordinate written with the same bytes, for writers that link repeats.
    private func originalTile(of tile: Tile, hash: ContentHash) throws -> TileCoordinate? {
        do {
            let repeatsCoordinates = reader.order == .unordered
            if repeatsCoordinates ? try blobs.wasSeen(tile.coordinate) : previous == tile.coordinate {
                repeated.record("tile \(tile.coordinate)", reason: "appears again")
                try blobs.forget(tile.coordinate)
            }
            let original = try blobs.original(of: hash, recording: tile.coordinate)
            return original == tile.coordinate ? nil : original
        } catch {
            throw TileStoreError(.io, store: writer.location.address, message: "temporary index of blobs failed: \(error)")
        }
    }

    private func takeCounts(from counter: BlobCounter) throws {
        do {
            let counts = try counter.finish()
            summary.duplicateTiles = counts.duplicateTiles
            summary.duplicateBytes = counts.duplicateBytes
            repeated = counts.repeated
        } catch {
            throw TileStoreError(.io, store: writer.location.address, message: "temporary index of blobs failed: \(error)")
        }
    }
}
