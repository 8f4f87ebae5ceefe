import Foundation

extension TilePatcher {
    /// Applies a chain of patches in order, as one change: each patch's
    /// `agg_tiles_hash_before_apply` must be the one before it's `agg_tiles_hash_after_apply`
    /// (checked before anything is read of the store), then the chain is folded into one patch
    /// (a later row wins; metadata changes in order) and applied as `apply(patch:to:options:)`
    /// does: the store must be the first patch's base and becomes the last one's result, all at
    /// once where the store commits atomically (MBTiles, PMTiles, GeoPackage, tar), and
    /// completed by the same command after an interruption where it does not (a folder, S3).
    /// - Throws: `TileStoreError` `.baseMismatch` naming the two patches and their hashes for a
    ///   missing link or a wrong order, `.unsupported` for a patch without its hashes, and what
    ///   `apply` throws; the store is then unchanged.
    public static func apply(patches: [String], to store: TileStoreLocation,
                             options: TilePatcher.ApplyOptions = TilePatcher.ApplyOptions()) throws -> TilePatcher.ApplySummary {
        guard patches.count > 1, let first = patches.first else {
            return try apply(patch: patches.first ?? "", to: store, options: options)
        }
        let started = Date()
        let readers = try patches.map { path throws(TileStoreError) in try PatchFileReader(path: path) }
        try checkLinks(readers)
        AtomicFile.removeStaleSystemTemporaries()
        let folded = AtomicFile.scratchPath(in: NSTemporaryDirectory(), purpose: "chain")
        defer { AtomicFile.remove(folded) }
        try fold(readers, into: folded)
        var summary: TilePatcher.ApplySummary
        do {
            summary = try apply(patch: folded, to: store, options: options)
        } catch let error as TileStoreError {
            let chain = "the chain \(patches.joined(separator: " + "))"
            throw TileStoreError(error.kind, store: error.store == folded ? chain : error.store, item: error.item,
                                 message: error.message.replacingOccurrences(of: "the patch \(folded)", with: "the first patch \(first)")
                                    .replacingOccurrences(of: folded, with: chain),
                                 hint: error.hint)
        }
        var chained = TilePatcher.ApplySummary(store: store, patchPath: patches.joined(separator: " + "))
        chained.added = summary.added
        chained.replaced = summary.replaced
        chained.deleted = summary.deleted
        chained.absentDeletions = summary.absentDeletions
        chained.bytesPut = summary.bytesPut
        chained.metadataChanges = summary.metadataChanges
        chained.beforeHash = summary.beforeHash
        chained.afterHash = summary.afterHash
        chained.alreadyApplied = summary.alreadyApplied
        chained.warnings = summary.warnings.map { $0.replacingOccurrences(of: folded, with: "the chain") }
        chained.seconds = Date().timeIntervalSince(started)
        summary = chained
        return summary
    }

    /// Each patch's base is the previous one's result.
    private static func checkLinks(_ readers: [PatchFileReader]) throws(TileStoreError) {
        for reader in readers where reader.beforeHash == nil || reader.afterHash == nil {
            throw TileStoreError(.unsupported, store: reader.path,
                                 message: "has no \(reader.beforeHash == nil ? PatchMetadataKeys.before : PatchMetadataKeys.after): its place in a chain cannot be checked; nothing was changed",
                                 hint: "apply it on its own")
        }
        for (previous, next) in zip(readers, readers.dropFirst()) {
            guard let after = previous.afterHash, let before = next.beforeHash, after != before else { continue }
            throw TileStoreError(.baseMismatch, store: next.path,
                                 message: "was made for a store with agg_tiles_hash \(before.hex), but \(previous.path) before it gives \(after.hex): a patch is missing between them, or they are out of order; nothing was changed",
                                 hint: "give the patches in the order they were made")
        }
    }

    /// One patch doing what the chain does: every row in order (a later one replaces an earlier
    /// one at its coordinate), the metadata changes in order, the first base and the last result.
    private static func fold(_ readers: [PatchFileReader], into path: String) throws {
        var metadata = TileMetadata()
        for reader in readers {
            for entry in reader.metadataChanges {
                if let value = entry.value { metadata[entry.key] = value } else { metadata.setNull(entry.key) }
            }
        }
        let writer = try PatchFileWriter(path: path, overwrite: true)
        do {
            try writer.begin(metadata: metadata, format: SniffedTileFormat(.unknown))
            for reader in readers {
                let changes = try reader.changes()
                while let change = try changes.next() {
                    if let data = change.data {
                        try writer.put(Tile(coordinate: change.coordinate, data: data), hash: .unknown, modificationTime: 0)
                    } else {
                        try writer.remove(change.coordinate)
                    }
                }
            }
            try writer.finish()
            guard let before = readers.first?.beforeHash, let after = readers.last?.afterHash else { return writer.abort() }
            try writer.seal(before: before, after: after)
        } catch {
            writer.abort()
            throw error
        }
    }
}
