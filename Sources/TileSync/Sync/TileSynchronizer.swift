import Foundation

/// `diff` and `sync` between any two stores.
///
/// Phase 1 merges the two stores' listings in a common order and decides per coordinate: a size
/// difference is a change; in quick mode equal size and modification time (folders) mean
/// unchanged, like rsync; otherwise MD5s decide, taken from stored hashes, from the sync state
/// while the file's size and time still match, or computed by reading the tile. The plan goes
/// to a temporary table. Phase 2 applies it through the destination's `TileUpdater`, reading
/// source bytes by random access (or one streaming pass for a tar), and writes the next sync
/// state (when a side is a single file: between two folders size and time are enough). When the
/// sync state shows that neither file store changed since the last sync, phase 1 is skipped.
public enum TileSynchronizer {
    /// The plan that would make `destination` equal to `source` (including deletions); changes
    /// nothing.
    /// - Parameter each: called for every add, replace and delete, in index order.
    public static func diff(from source: TileStoreLocation, to destination: TileStoreLocation,
                            options: SyncOptions = SyncOptions(), each: ((SyncPlanEntry) -> Void)? = nil) throws -> SyncSummary {
        var options = options
        options.dryRun = true
        options.delete = true
        return try sync(from: source, to: destination, options: options, each: each)
    }

    /// Makes `destination` hold what `source` holds (within the filter): new and changed tiles
    /// are written, unchanged ones are not touched, destination-only tiles are removed with
    /// `delete`, metadata is replaced by the source's. A missing destination is created.
    /// - Parameter each: called for every add, replace and delete, in index order.
    /// - Throws: `TileStoreError`; the destination is then as it was (MBTiles, tar) or is
    ///   completed by the next run (folder journal).
    public static func sync(from source: TileStoreLocation, to destination: TileStoreLocation,
                            options: SyncOptions = SyncOptions(), each: ((SyncPlanEntry) -> Void)? = nil) throws -> SyncSummary {
        let started = Date()
        try TileConverter.refuseSameStore(source, destination)
        if !options.dryRun, source.kind == .directory, destination.kind == .directory, !AtomicFile.exists(destination.path) {
            return try copyIntoNewFolder(from: source, to: destination, options: options, each: each, started: started)
        }
        let sourceReader = try TileStores.openReader(source, layout: options.sourceLayout)
        sourceReader.setCancellation(options.isCancelled)
        if !options.dryRun {
            AtomicFile.removeStaleTemporaries(of: destination.path)
            if destination.kind == .directory, AtomicFile.exists(destination.path) {
                try DirectoryUpdater.recover(root: destination.path)
            }
            if destination.kind == .mbtiles { MBTilesMaintenance.recover(path: destination.path) }
        }
        let destinationExists = AtomicFile.exists(destination.path)
        var created = false
        if !destinationExists, !options.dryRun, destination.kind != .tar {
            let initial = TileConverter.PreparedMetadata(metadata: TileMetadata(), fileExtension: "bin", warnings: [], summary: nil)
            try create(destination, schema: options.mbtilesSchema, metadata: initial.metadata)
            created = true
        }
        do {
            return try sync(from: source, to: destination, options: options, each: each, started: started,
                            sourceReader: sourceReader, destinationExisted: destinationExists)
        } catch {
            if created { AtomicFile.remove(destination.path) }
            throw error
        }
    }

    private static func sync(from source: TileStoreLocation, to destination: TileStoreLocation, options: SyncOptions,
                             each: ((SyncPlanEntry) -> Void)?, started: Date, sourceReader: any TileReader,
                             destinationExisted: Bool) throws -> SyncSummary {
        var summary = SyncSummary(source: source, destination: destination)
        let sourceStamp = source.kind == .directory ? nil : FileStamp(path: source.path)
        let destinationExists = AtomicFile.exists(destination.path)
        var destinationReader = destinationExists ? try TileStores.openReader(destination, layout: options.destinationLayout) : nil
        let destinationLayout = options.destinationLayout ?? destinationReader?.layout ?? .xyz

        let identity = [source.kind.rawValue, canonicalPath(source.path), options.sourceLayout?.text ?? "-",
                        destinationLayout.text, describe(options.filter)].joined(separator: "|")
        let statePath = SyncState.path(for: destination)
        let state = options.checksum || !destinationExisted ? nil : SyncState.load(path: statePath, identity: identity)
        let destinationStamp = destination.kind == .directory ? nil : FileStamp(path: destination.path)
        let sourceUnchanged = state != nil && sourceStamp != nil && state?.sourceStamp == sourceStamp
        let destinationUnchanged = state != nil && destinationStamp != nil && state?.destinationStamp == destinationStamp

        if sourceUnchanged && destinationUnchanged, let state, !options.delete || state.count(inSource: false) == 0 {
            summary.unchanged = state.count(inSource: true)
            summary.kept = state.count(inSource: false)
            summary.quickCheckSkippedComparison = true
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }

        let firstTile = try firstValidTile(sourceReader, filter: options.filter)
        let sniffed = firstTile.map { SniffedTileFormat(sniffing: $0.data) }
        let prepared = try TileConverter.prepareMetadata(sourceReader, metadata: try sourceReader.metadata(), filter: options.filter,
                                                         sniffed: sniffed, destination: destination)
        let ignored: Set<String> = ["scheme", "agg_tiles_hash"]
        let currentMetadata = try destinationReader?.metadata() ?? TileMetadata()
        summary.metadataChanged = prepared.metadata.entries.filter { !ignored.contains($0.key) }
            != currentMetadata.entries.filter { !ignored.contains($0.key) }

        let syncTime = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        let plan: SyncPlanTable
        let nextState: SyncStateWriter?
        do {
            plan = try SyncPlanTable()
            // Between two folders, size and modification time per file are the whole quick check
            // (as in rsync); the state earns its keep when a side is one file (MBTiles, tar).
            let keepsState = source.kind != .directory || destination.kind != .directory
            nextState = options.dryRun || !keepsState ? nil : try SyncStateWriter(path: statePath)
        } catch {
            throw TileStoreError(.io, store: destination.path, message: "cannot create temporary tables for the sync: \(error)")
        }
        var computedHashes = 0
        do {
            var order = TileOrder.zoomColumnRow
            if !sourceUnchanged, sourceReader.order != .unordered { order = sourceReader.order }
            else if !destinationUnchanged, let reader = destinationReader, reader.order != .unordered { order = reader.order }
            let invalid = InvalidCollector()
            // The source listing runs on a second core; tiles hashed meanwhile come through a reader
            // of their own, since a reader (an SQLite connection) is used by one thread at a time.
            let sourceIndex: any TileIndexCursor = if sourceUnchanged, let state {
                try state.index(order: order, sourceOnly: true)
            } else {
                PrefetchingIndexCursor(try SortedTileIndex.cursor(
                    of: sourceReader, matching: options.filter, order: order,
                    listing: sourceReader.listingKnowsContent && !options.checksum,
                    invalid: options.skipInvalid ? { error in invalid.record(error) } : nil))
            }
            let sourceLookup = try TileStores.openReader(source, layout: options.sourceLayout)
            let destinationIndex: any TileIndexCursor = if destinationUnchanged, let state {
                try state.index(order: order, sourceOnly: false)
            } else if let reader = destinationReader {
                try SortedTileIndex.cursor(of: reader, matching: options.filter, order: order,
                                           listing: reader.listingKnowsContent && !options.checksum, invalid: { _ in })
            } else {
                EmptyIndexCursor()
            }
            let merge = TileIndexMerge(source: sourceIndex, destination: destinationIndex, order: order)
            let folderDestination = destination.kind == .directory
            while let pair = try merge.next() {
                if options.isCancelled() {
                    throw TileStoreError(.interrupted, store: destination.path, message: "interrupted; the destination was not changed")
                }
                let coordinate = pair.coordinate
                switch (pair.source, pair.destination) {
                case (let s?, nil):
                    try plan.add(coordinate, action: .add, size: s.size, sourceModificationTime: s.modificationTime)
                    try nextState?.add(coordinate, size: s.size, hash: s.hash, sourceModificationTime: s.modificationTime,
                                       destinationModificationTime: folderDestination ? s.modificationTime ?? syncTime : nil, inSource: true)
                    summary.added += 1
                    summary.bytesToAdd += s.size
                    each?(SyncPlanEntry(action: .add, coordinate: coordinate, size: s.size))
                case (nil, let d?):
                    if options.delete {
                        try plan.add(coordinate, action: .delete, size: d.size, sourceModificationTime: nil)
                        summary.deleted += 1
                        each?(SyncPlanEntry(action: .delete, coordinate: coordinate, size: d.size))
                    } else {
                        try nextState?.add(coordinate, size: d.size, hash: d.hash, sourceModificationTime: nil,
                                           destinationModificationTime: d.modificationTime, inSource: false)
                        summary.kept += 1
                    }
                    summary.bytesToDelete += d.size
                case (let s?, let d?):
                    var sourceHash = s.hash, destinationHash = d.hash
                    var same = false
                    if s.size == d.size {
                        if !options.checksum, let sourceTime = s.modificationTime, sourceTime == d.modificationTime {
                            same = true
                        } else {
                            if sourceHash == nil, let recorded = state?.entry(at: coordinate), recorded.inSource, recorded.size == s.size,
                               let time = s.modificationTime, recorded.sourceModificationTime == time {
                                sourceHash = recorded.hash
                            }
                            if destinationHash == nil, let recorded = state?.entry(at: coordinate), recorded.size == d.size,
                               let time = d.modificationTime, recorded.destinationModificationTime == time {
                                destinationHash = recorded.hash
                            }
                            if sourceHash == nil {
                                sourceHash = try hashOf(coordinate, in: sourceLookup)
                                computedHashes += 1
                            }
                            if destinationHash == nil, let reader = destinationReader {
                                destinationHash = try hashOf(coordinate, in: reader)
                                computedHashes += 1
                            }
                            same = sourceHash != nil && sourceHash == destinationHash
                        }
                    }
                    if same {
                        summary.unchanged += 1
                        try nextState?.add(coordinate, size: s.size, hash: sourceHash ?? destinationHash, sourceModificationTime: s.modificationTime,
                                           destinationModificationTime: d.modificationTime, inSource: true)
                    } else {
                        try plan.add(coordinate, action: .replace, size: s.size, sourceModificationTime: s.modificationTime)
                        try nextState?.add(coordinate, size: s.size, hash: sourceHash, sourceModificationTime: s.modificationTime,
                                           destinationModificationTime: folderDestination ? s.modificationTime ?? syncTime : nil, inSource: true)
                        summary.replaced += 1
                        summary.bytesToReplace += s.size
                        each?(SyncPlanEntry(action: .replace, coordinate: coordinate, size: s.size))
                    }
                case (nil, nil):
                    continue
                }
            }
            summary.invalidTiles = invalid.items
        }
        if !options.delete { summary.bytesToDelete = 0 }
        destinationReader = nil
        if options.dryRun || (summary.isInSync && destinationExisted) {
            if let nextState, computedHashes > 0 || state == nil {
                try? nextState.finish(identity: identity, sourceStamp: sourceStamp,
                                      destinationStamp: destination.kind == .directory ? nil : FileStamp(path: destination.path))
            }
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }

        let updater = try TileStores.makeUpdater(destination, layout: destinationLayout, fileExtension: prepared.fileExtension)
        do {
            try updater.begin(metadata: prepared.metadata)
            func write(_ tile: Tile, row: SyncPlanTable.Row) throws {
                if options.isCancelled() {
                    throw TileStoreError(.interrupted, store: destination.path, message: "interrupted; the destination was not changed")
                }
                let hash = ContentHash(of: tile.data)
                try updater.put(tile, hash: hash, modificationTime: row.sourceModificationTime ?? syncTime)
                try nextState?.record(tile.coordinate, hash: hash, size: tile.data.count)
            }
            if sourceReader.hasCheapRandomAccess {
                try plan.rows([.add, .replace]) { row in
                    guard let data = try sourceReader.tile(at: row.coordinate) else {
                        throw TileStoreError(.invalidTile, store: source.path, item: "tile \(row.coordinate)", message: "disappeared during the sync")
                    }
                    try write(Tile(coordinate: row.coordinate, data: data), row: row)
                }
            } else {
                let cursor = try sourceReader.tiles(matching: options.filter)
                while let tile = try nextSourceTile(cursor, skipInvalid: options.skipInvalid) {
                    guard let row = try plan.row(at: tile.coordinate), row.action == .add || row.action == .replace else { continue }
                    try write(tile, row: row)
                }
            }
            try plan.rows([.delete]) { try updater.remove($0.coordinate) }
            try updater.finish()
        } catch {
            updater.abort()
            throw error
        }
        summary.created = !destinationExisted
        summary.wroteNothing = false
        try? nextState?.finish(identity: identity, sourceStamp: sourceStamp,
                               destinationStamp: destination.kind == .directory ? nil : FileStamp(path: destination.path))
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// A sync from a folder into a missing folder: a conversion that gives every file its source
    /// file's modification time, which is all the next sync compares between two folders (no
    /// sync state is kept between folders). Every tile is an add.
    private static func copyIntoNewFolder(from source: TileStoreLocation, to destination: TileStoreLocation, options: SyncOptions,
                                          each: ((SyncPlanEntry) -> Void)?, started: Date) throws -> SyncSummary {
        var conversion = ConversionOptions()
        conversion.filter = options.filter
        conversion.sourceLayout = options.sourceLayout
        conversion.destinationLayout = options.destinationLayout ?? .xyz
        conversion.skipInvalid = options.skipInvalid
        conversion.isCancelled = options.isCancelled
        conversion.preservesModificationTimes = true
        let converted = try TileConverter.convert(from: source, to: destination, options: conversion, progress: nil) { tile in
            each?(SyncPlanEntry(action: .add, coordinate: tile.coordinate, size: tile.data.count))
        }
        var summary = SyncSummary(source: source, destination: destination)
        summary.added = converted.tilesWritten
        summary.bytesToAdd = converted.bytesWritten
        summary.metadataChanged = converted.metadata.entries.contains { $0.key != "scheme" && $0.key != "agg_tiles_hash" }
        summary.invalidTiles = converted.invalidTiles
        summary.created = true
        summary.wroteNothing = false
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// An empty store of the destination's kind, for a sync into a missing destination.
    private static func create(_ destination: TileStoreLocation, schema: MBTilesSchema, metadata: TileMetadata) throws {
        switch destination.kind {
        case .mbtiles:
            let writer = MBTilesWriter(location: destination, schema: schema)
            try writer.begin(metadata: metadata)
            try writer.finish()
        case .directory:
            do {
                try FileManager.default.createDirectory(atPath: destination.path, withIntermediateDirectories: false)
            } catch {
                throw TileStoreError(.io, store: destination.path, message: "cannot create the folder: \(error.localizedDescription)")
            }
        case .tar:
            break
        }
    }

    private static func hashOf(_ coordinate: TileCoordinate, in reader: any TileReader) throws -> ContentHash? {
        try reader.tile(at: coordinate).map { ContentHash(of: $0) }
    }

    private static func firstValidTile(_ reader: any TileReader, filter: TileFilter) throws -> Tile? {
        let cursor = try reader.tiles(matching: filter)
        return try nextSourceTile(cursor, skipInvalid: true)
    }

    private static func nextSourceTile(_ cursor: any TileCursor, skipInvalid: Bool) throws -> Tile? {
        while true {
            do {
                return try cursor.next()
            } catch let error as TileStoreError where error.kind == .invalidTile && skipInvalid {
                continue
            }
        }
    }

    private static func canonicalPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    private static func describe(_ filter: TileFilter) -> String {
        "\(filter.zooms.lowerBound)-\(filter.zooms.upperBound)" + (filter.boundingBox.map { "@\($0)" } ?? "")
    }
}
