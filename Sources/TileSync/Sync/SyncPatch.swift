import Foundation

/// `sync --write-patch`: what a sync is about to change in its destination, written first as a
/// patch in martin's format (the plan's tiles, NULL rows for deletions, the metadata changes,
/// and the destination's `agg_tiles_hash` before and after), so devices holding yesterday's copy
/// can download the change instead of the package. The patch is sealed before the destination
/// changes and removed again when that change fails.
///
/// For a destination that keeps its `agg_tiles_hash` (an MBTiles), the hash before comes from
/// `SyncPatchBaseHash` (computed while the sync plans) and the hash after from the updater, which
/// computes the one its commit writes: the patch is sealed inside that commit, just before it.
/// Otherwise one pass over the destination merged with the patch gives both, before the change.
final class SyncPatch {
    let path: String
    private let writer: PatchFileWriter
    private var base: ContentHash?
    /// Hashes and size once sealed.
    private(set) var sealed: (before: ContentHash, after: ContentHash, bytes: Int)?

    /// Writes the patch's rows: the plan's tiles and deletions, and the metadata changes.
    /// - Throws: `TileStoreError` (`.destinationExists` for an existing file, read and write
    ///   errors); no patch file is left then.
    init(path: String, context: SyncContext, plan: SyncPlanTable, currentMetadata: TileMetadata, preparedMetadata: TileMetadata) throws {
        self.path = path
        let changes = SyncMetadata.patchChanges(from: currentMetadata, to: preparedMetadata, in: context.destination.kind)
        writer = try PatchFileWriter(path: path, overwrite: false)
        do {
            try SyncApplier(context: context, plan: plan, nextState: nil)
                .apply(metadata: changes, format: SniffedTileFormat(.unknown), through: writer)
        } catch {
            writer.abort()
            throw TileStoreError(wrapping: error, store: path)
        }
    }

    /// Arranges the sealing: through `updater`'s commit when it can tell its hash, else now,
    /// from a pass over the destination as `destinationReader` reads it (and then `updater` is
    /// given the hash after, to write instead of reading the store again).
    /// - Throws: `TileStoreError` from either store; no patch file is left then.
    func arrangeSealing(context: SyncContext, destinationReader: any TileReader, updater: any TileUpdater) throws {
        do {
            if let known = try context.patchBaseHash?.value() {
                base = known
                if updater.callBeforeCommit({ [self] after in try seal(after: after) }) { return }
            }
            let hashes = try PatchedStoreHashes.compute(store: destinationReader, patch: try PatchFileReader(path: writer.temporaryPath),
                                                        current: base)
            base = hashes.current
            try seal(after: hashes.patched)
            if hashes.skippedInvalidTiles == 0 { updater.setCommittedAggregateHash(hashes.patched) }
        } catch {
            writer.abort()
            throw TileStoreError(wrapping: error, store: path)
        }
    }

    private func seal(after: ContentHash) throws {
        guard let base else { throw TileStoreError(.io, store: path, message: "the destination's agg_tiles_hash before the sync is unknown") }
        try writer.seal(before: base, after: after)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        sealed = (base, after, bytes)
    }

    /// Removes the patch when its change did not reach the destination (sealed or not).
    func withdraw() {
        writer.abort()
        if sealed != nil { AtomicFile.remove(path) }
    }
}
