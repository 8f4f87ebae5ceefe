import Foundation

/// A sync into a store that does not exist yet, when no sync state is to be kept (two folders):
/// one conversion that gives every tile its source tile's modification time, which is all the
/// next sync compares. Every tile is an add.
enum SyncInitialCopy {
    /// True when `sync` may take this path: not with raster re-encoding, whose memo (what each
    /// source tile became) only a planned sync writes, so that the next sync need not re-encode
    /// every tile to compare it.
    static func applies(from source: TileStoreLocation, to destination: TileStoreLocation, options: TileSynchronizer.Options) -> Bool {
        !options.dryRun && !destination.resource.exists && !SyncContext.keepsState(source, destination)
            && options.transforms.rasterEncoding == nil
    }

    static func run(from source: TileStoreLocation, to destination: TileStoreLocation, options: TileSynchronizer.Options,
                    each: ((TileSynchronizer.PlanEntry) -> Void)?, started: Date) throws -> TileSynchronizer.Summary {
        var conversion = TileConverter.Options()
        conversion.filter = options.filter
        conversion.skipInvalid = options.skipInvalid
        conversion.transforms = options.transforms
        conversion.isCancelled = options.isCancelled
        conversion.limits = options.limits
        conversion.preservesModificationTimes = true
        let converted = try TileConverter.convert(from: source, to: destination, options: conversion, progress: nil) { tile in
            each?(TileSynchronizer.PlanEntry(action: .add, coordinate: tile.coordinate, size: tile.data.count))
        }
        var summary = TileSynchronizer.Summary(source: source, destination: destination)
        summary.added = converted.tilesWritten
        summary.gridsAdded = converted.gridsWritten
        summary.uncarried = converted.uncarried
        summary.warnings = converted.warnings
        summary.notes = converted.notes
        summary.bytesToAdd = converted.bytesWritten
        summary.metadataChanged = converted.metadata.entries.contains { !SyncMetadata.ignoredKeys.contains($0.key) }
        summary.invalidTiles = converted.invalidTiles
        summary.rasterReencoding = converted.rasterReencoding
        summary.tilesWithoutLayers = converted.tilesWithoutLayers
        summary.created = true
        summary.wroteNothing = false
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }
}
