import Foundation

/// `sync --write-patch`: what a sync is about to change in its destination, written first as a
/// patch in martin's format (the plan's tiles, NULL rows for deletions, the metadata changes,
/// and the destination's `agg_tiles_hash` before and after), so devices holding yesterday's copy
/// can download the change instead of the package. The patch is sealed before the destination
/// changes and removed again when that change fails.
struct SyncPatch {
    let path: String

    /// Writes and seals the patch of `plan` against the destination as `destinationReader` reads it.
    /// - Returns: the patch's hashes (before, after) and its size in bytes.
    /// - Throws: `TileStoreError` (`.destinationExists` for an existing file, read and write errors);
    ///   no patch file is left then.
    func write(context: SyncContext, plan: SyncPlanTable, destinationReader: any TileReader, currentMetadata: TileMetadata,
               preparedMetadata: TileMetadata) throws -> (before: ContentHash, after: ContentHash, bytes: Int) {
        let changes = SyncMetadata.patchChanges(from: currentMetadata, to: preparedMetadata, in: context.destination.kind)
        let writer = try PatchFileWriter(path: path, overwrite: false)
        do {
            try SyncApplier(context: context, plan: plan, nextState: nil)
                .apply(metadata: changes, format: SniffedTileFormat(.unknown), through: writer)
            let hashes = try PatchedStoreHashes.compute(store: destinationReader, patch: try PatchFileReader(path: writer.temporaryPath))
            try writer.seal(before: hashes.current, after: hashes.patched)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return (hashes.current, hashes.patched, bytes ?? 0)
        } catch {
            writer.abort()
            throw TileStoreError(wrapping: error, store: path)
        }
    }

    /// Removes a sealed patch whose change did not reach the destination.
    func withdraw() {
        AtomicFile.remove(path)
    }
}
