import Foundation

/// Streams tiles from any reader to any writer in bounded memory, bytes unchanged, metadata
/// carried across with the missing `minzoom`, `maxzoom`, `bounds` and `format` filled in from
/// the tiles. It knows stores only through `TileStoreLocation`, the reader and writer protocols
/// and what the writer says it needs: tiles come in the writer's preferred order where the
/// reader can give it, each tile is hashed (MD5) once when the writer wants hashes, repeats are
/// looked up for writers that link them, and distinct blobs are counted for the summary.
public enum TileConverter {
    /// Copies the tiles of `source` that pass the filter into a new store at `destination`.
    /// - Parameter progress: called after each tile (on the calling thread).
    /// - Returns: counts, skipped items, warnings and timing.
    /// - Throws: `TileStoreError`: `.sameSourceAndDestination`, `.destinationExists`, any read
    ///   error (per-tile ones only without `skipInvalid`), `.io`, `.interrupted`. On error the
    ///   destination is as it was.
    public static func convert(from source: TileStoreLocation, to destination: TileStoreLocation,
                               options: TileConverter.Options = TileConverter.Options(),
                               progress: ((TileConverter.Progress) -> Void)? = nil) throws -> TileConverter.Summary {
        do {
            return try convert(from: source, to: destination, options: options, progress: progress, written: nil)
        } catch let error as TileStoreError where error.kind == .interrupted {
            throw TileStoreError(.interrupted, store: destination.address, message: "interrupted; the destination was not changed")
        } catch {
            throw TileStoreError(wrapping: error, store: destination.address)
        }
    }

    /// `convert(from:to:options:progress:)`, calling `written` with each tile after it is written.
    static func convert(from source: TileStoreLocation, to destination: TileStoreLocation, options: TileConverter.Options,
                        progress: ((TileConverter.Progress) -> Void)?, written: ((Tile) -> Void)?) throws -> TileConverter.Summary {
        let started = Date()
        try source.refuseSameStore(as: destination)
        destination.resource.removeStaleTemporaries()
        let reader = try source.openReader()
        reader.setCancellation(options.isCancelled)
        let downloads = reader.roles.downloadKeeping
        try downloads?.keepDownloads(beside: destination, shard: options.filter.shard, recording: true)
        let sourceMetadata = try reader.metadata()
        let amount = try TileAmountCheck.count(reader, filter: options.filter, limits: options.limits)
        var settings = TileWriterSettings(overwrite: options.overwrite, preservesModificationTimes: options.preservesModificationTimes,
                                          isCancelled: options.isCancelled)
        settings.shard = options.filter.shard
        let writer = try destination.makeWriter(settings)
        do {
            if let amount {
                try TileAmountCheck.checkSpace(amount, destination: destination, deduplicates: writer.deduplication != .none,
                                               limits: options.limits)
            }
            if var joined = try StoreJoinRun.run(reader: reader, writer: writer, metadata: sourceMetadata, options: options,
                                                 watchesTiles: written != nil) {
                joined.seconds = Date().timeIntervalSince(started)
                downloads?.finishDownloads(keepingValidators: false)
                return joined
            }
            let run = try ConversionRun(reader: reader, writer: writer, options: options, progress: progress, written: written)
            let copyAndFinish = {
                let summary = try run.copy(sourceMetadata: sourceMetadata)
                try writer.finish()
                return summary
            }
            // A writer that reads the source again at `finish()` needs the version it streamed.
            var summary = try run.rereadsSource ? reader.roles.consistentReads.map { try $0.withConsistentReads(copyAndFinish) } ?? copyAndFinish()
                : copyAndFinish()
            ConversionRun.takeCounts(of: writer, into: &summary)
            summary.seconds = Date().timeIntervalSince(started)
            downloads?.finishDownloads(keepingValidators: false)
            return summary
        } catch {
            writer.abort()
            throw error
        }
    }

    /// The next grid, passing over (and recording) invalid ones when `skipInvalid`.
    static func nextGrid(_ cursor: any UTFGridCursor, skipInvalid: Bool, invalid: inout SkippedItems) throws -> UTFGrid? {
        while true {
            do {
                return try cursor.next()
            } catch let error as TileStoreError where error.kind == .invalidTile && skipInvalid {
                invalid.record(error.item ?? error.store, reason: error.message)
            }
        }
    }

    static func nextTile(_ cursor: any TileCursor, skipInvalid: Bool, invalidTiles: inout SkippedItems) throws -> Tile? {
        while true {
            do {
                return try cursor.next()
            } catch let error as TileStoreError where error.kind == .invalidTile && skipInvalid {
                invalidTiles.record(error.item ?? error.store, reason: error.message)
            }
        }
    }
}
