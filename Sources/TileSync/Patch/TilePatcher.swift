import Foundation

/// Patch files in martin's diff format between any two stores: `makePatch` writes what turns a
/// base store into a target (tiles to add or replace with their bytes, NULL rows for tiles to
/// delete, changed metadata, and the base's aggregate hash before and after), `apply` carries a
/// patch into a store of any kind through its `TileUpdater` (an MBTiles in one transaction, a
/// folder through its journal, a tar or PMTiles by a rewrite), after checking that the store is
/// the patch's base and that the result will be the one the patch promises.
public enum TilePatcher {
    /// Writes a patch that turns `base` into `target` (within the filter), as martin's
    /// `mbtiles diff BASE TARGET PATCH` does. Tiles are compared by MD5; the patch file is an
    /// MBTiles built beside `patchPath` and renamed into place at the end.
    /// - Throws: `TileStoreError` (`.notFound`, `.destinationExists` for an existing patch
    ///   without `overwrite`, `.sameSourceAndDestination`, `.interrupted`, read errors); no
    ///   patch file is left then.
    public static func makePatch(from base: TileStoreLocation, to target: TileStoreLocation, writingTo patchPath: String,
                                 options: TilePatcher.Options = TilePatcher.Options()) throws -> TilePatcher.Summary {
        let started = Date()
        do {
            try base.refuseSameStore(as: target)
            let patchLocation = PatchFileLocation.at(patchPath)
            try patchLocation.refuseSameStore(as: base)
            try patchLocation.refuseSameStore(as: target)
            guard base.resource.exists else {
                throw TileStoreError(.notFound, store: base.address, message: "no such store; a patch is made against an existing one")
            }
            var syncOptions = TileSynchronizer.Options()
            syncOptions.filter = options.filter
            syncOptions.delete = true
            syncOptions.checksum = true
            syncOptions.recordsState = false
            syncOptions.skipInvalid = options.skipInvalid
            syncOptions.isCancelled = options.isCancelled
            let targetReader = try target.openReader()
            targetReader.setCancellation(options.isCancelled)
            let context = try SyncContext(source: target, destination: base, options: syncOptions, sourceReader: targetReader)
            guard let baseReader = context.destinationReader else {
                throw TileStoreError(.notFound, store: base.address, message: "no such store")
            }
            let targetMetadata = try SyncMetadata.prepare(targetReader, filter: .all).metadata
            let changes = metadataChanges(from: try baseReader.metadata(), to: targetMetadata, in: base.kind)
            let planner = try SyncPlanner(context: context, each: nil)
            let plan = try planner.makePlan()
            let writer = try PatchFileWriter(path: patchPath, overwrite: options.overwrite)
            var summary = TilePatcher.Summary(base: base, target: target, patchPath: patchPath)
            do {
                try SyncApplier(context: context, plan: planner.plan, nextState: nil)
                    .apply(metadata: changes, format: SniffedTileFormat(.unknown), through: writer)
                let hashes = try PatchedStoreHashes.compute(store: baseReader, patch: try PatchFileReader(path: writer.temporaryPath))
                try writer.seal(before: hashes.current, after: hashes.patched)
                summary.beforeHash = hashes.current
                summary.afterHash = hashes.patched
            } catch {
                writer.abort()
                throw error
            }
            summary.added = plan.added
            summary.replaced = plan.replaced
            summary.deleted = plan.deleted
            summary.bytesPut = writer.bytesPut
            summary.metadataChanges = changes.entries.count
            summary.invalidTiles = plan.invalidTiles
            summary.patchBytes = (try? FileManager.default.attributesOfItem(atPath: patchPath)[.size] as? Int) ?? 0
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        } catch {
            throw TileStoreError(wrapping: error, store: patchPath)
        }
    }

    /// What a patch file holds: rows that put and delete tiles, metadata changes, its hashes.
    /// - Throws: `TileStoreError` as `apply` does for a file that is no patch.
    public static func describe(patch patchPath: String) throws -> TilePatcher.Description {
        let patch = try PatchFileReader(path: patchPath)
        let counts = try patch.counts()
        return TilePatcher.Description(puts: counts.puts, deletions: counts.deletions, metadataChanges: patch.metadataChanges.entries.count,
                                beforeHash: patch.beforeHash, afterHash: patch.afterHash)
    }

    /// Applies a patch file to a store of any kind, as martin's `mbtiles apply-patch` does for
    /// MBTiles. First, in one pass over the store, its `agg_tiles_hash` now and once patched are
    /// computed: a store that is not the patch's base is refused, and so is a patch whose result
    /// would not be the one it promises, both before anything is written (`force` applies
    /// anyway, with a warning). A store that already holds the result is left untouched: its
    /// tiles are the patched ones and either the patch's base had other tiles or the metadata
    /// needs no change. The result is checked: a file-backed store (MBTiles, tar, PMTiles) is
    /// checked unchanged since that pass once its updater began (an MBTiles then holds its
    /// write lock), so the computed hash is the one committed; a folder is read again after
    /// the commit.
    /// - Throws: `TileStoreError`: `.baseMismatch` for the wrong store, `.corrupt` for a patch
    ///   that does not give its result, `.unsupported` for binary patches, `.interrupted`, and
    ///   read and write errors. The store is then as it was (or, for a folder, completed by the
    ///   next run).
    public static func apply(patch patchPath: String, to store: TileStoreLocation,
                             options: TilePatcher.ApplyOptions = TilePatcher.ApplyOptions()) throws -> TilePatcher.ApplySummary {
        let started = Date()
        do {
            let patch = try PatchFileReader(path: patchPath)
            try PatchFileLocation.at(patchPath).refuseSameStore(as: store)
            let resource = store.resource
            guard resource.exists else {
                throw TileStoreError(.notFound, store: store.address, message: "no such store; a patch applies to an existing one")
            }
            resource.removeStaleTemporaries()
            try resource.recoverInterruptedUpdate()
            var summary = TilePatcher.ApplySummary(store: store, patchPath: patchPath)
            let stamp = resource.versionStamp
            let (hashes, metadata) = try check(patch, against: store, options: options, summary: &summary)
            summary.added = hashes.added
            summary.replaced = hashes.replaced
            summary.deleted = hashes.deleted
            summary.absentDeletions = hashes.absentDeletions
            summary.bytesPut = hashes.bytesPut
            summary.beforeHash = hashes.current
            summary.afterHash = hashes.patched
            guard let metadata else {
                summary.alreadyApplied = true
                summary.seconds = Date().timeIntervalSince(started)
                return summary
            }
            let committed = try write(patch, to: store, metadata: metadata, options: options, stamp: stamp, hashes: hashes)
            // A store without a version stamp (a folder) was not checked unchanged; an updater that
            // computed another hash (over invalid rows an MBTiles counts) is read back to be sure.
            if stamp == nil || (committed.map { $0 != hashes.patched } ?? false) { try confirm(store, has: hashes.patched) }
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        } catch {
            throw TileStoreError(wrapping: error, store: store.address)
        }
    }

    /// The store's hashes with and without the patch, checked against the patch's; the
    /// metadata to write, or nil when the store already holds the patch's result.
    private static func check(_ patch: PatchFileReader, against store: TileStoreLocation, options: TilePatcher.ApplyOptions,
                              summary: inout TilePatcher.ApplySummary) throws -> (PatchedStoreHashes, TileMetadata?) {
        let reader = try store.openReader()
        reader.setCancellation(options.isCancelled)
        let hashes = try PatchedStoreHashes.compute(store: reader, patch: patch)
        let current = try reader.metadata()
        var metadata = current
        for entry in patch.metadataChanges {
            let changes = entry.value.map { current[entry.key] != $0 } ?? current.contains(entry.key)
            if changes { summary.metadataChanges += 1 }
            metadata[entry.key] = entry.value
        }
        if metadata.contains(PatchMetadataKeys.aggregateHash) { metadata[PatchMetadataKeys.aggregateHash] = hashes.patched.hex }
        if hashes.patched == hashes.current {
            let wasPatched = patch.beforeHash.map { $0 != hashes.current } ?? false
            if wasPatched || !SyncMetadata.differs(metadata, from: current, in: store.kind) { return (hashes, nil) }
        }
        let path = patch.path
        if let before = patch.beforeHash, before != hashes.current, let after = patch.afterHash, after == hashes.patched {
            summary.warnings.append("\(store.address) has agg_tiles_hash \(hashes.current.hex), not the \(before.hex) the patch \(path) was made for, "
                + "but the patch turns it into exactly the promised \(after.hex) (the rest of an interrupted apply): completed")
        } else if let before = patch.beforeHash, before != hashes.current {
            let problem = "\(store.address) has agg_tiles_hash \(hashes.current.hex), but the patch \(path) was made for a store with \(before.hex)"
            guard options.force else {
                throw TileStoreError(.baseMismatch, store: store.address,
                                     message: "has agg_tiles_hash \(hashes.current.hex), but the patch \(path) was made for a store with \(before.hex); nothing was changed",
                                     hint: "apply it to the store it was made from, or pass --force to apply it anyway")
            }
            summary.warnings.append(problem + "; applied anyway (--force)")
        } else if patch.beforeHash == nil {
            summary.warnings.append("\(path) has no \(PatchMetadataKeys.before) (older mbtiles versions did not write one), "
                + "so \(store.address) could not be checked against the store it was made for")
        }
        if let after = patch.afterHash, after != hashes.patched {
            guard options.force else {
                throw TileStoreError(.corrupt, store: path,
                                     message: "applied to \(store.address) it would give agg_tiles_hash \(hashes.patched.hex), not the \(after.hex) its \(patch.afterKey ?? PatchMetadataKeys.after) promises; nothing was changed",
                                     hint: "the patch is damaged or was made for another store; make it again, or pass --force to apply it anyway")
            }
            summary.warnings.append("\(path): the result's agg_tiles_hash is \(hashes.patched.hex), not the promised \(after.hex); applied anyway (--force)")
        } else if patch.afterHash == nil {
            summary.warnings.append("\(path) has no \(PatchMetadataKeys.after), so the result could not be checked against it")
        } else if let key = patch.afterKey, key != PatchMetadataKeys.after {
            summary.warnings.append("\(path) names the result's hash \(key), as older mbtiles versions did (now \(PatchMetadataKeys.after))")
        }
        return (hashes, metadata)
    }

    /// Puts and removes the patch's rows through the store's updater, in one commit, after
    /// checking that a file-backed store is still the one the hashes were computed from (its
    /// `stamp`); the aggregate hash the updater committed, when it computed or was given one.
    private static func write(_ patch: PatchFileReader, to store: TileStoreLocation, metadata: TileMetadata,
                              options: TilePatcher.ApplyOptions, stamp: String?, hashes: PatchedStoreHashes) throws -> ContentHash? {
        let format = try metadata.format.map { SniffedTileFormat($0) } ?? patch.firstTileData().map { SniffedTileFormat(sniffing: $0) }
            ?? SniffedTileFormat(.unknown)
        let updater = try store.makeUpdater()
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        do {
            try updater.begin(metadata: metadata, format: format)
            if let stamp {
                guard store.resource.versionStamp == stamp else {
                    throw TileStoreError(.io, store: store.address, message: "changed while the patch was checked; nothing was changed",
                                         hint: "run the apply again")
                }
                if hashes.skippedInvalidTiles == 0 { updater.setCommittedAggregateHash(hashes.patched) }
            }
            let changes = try patch.changes()
            var made = 0
            defer { options.progress?(made) }
            while let change = try changes.next() {
                made += 1
                if made % 1024 == 0 { options.progress?(made) }
                if options.isCancelled() {
                    guard updater.commitsAtomically else {
                        throw TileStoreError(.interrupted, store: store.address,
                                             message: "interrupted after some of the patch's changes were made (the store changes object by object)",
                                             hint: "apply the patch again to complete it")
                    }
                    throw TileStoreError(.interrupted, store: store.address, message: "interrupted; the store was not changed")
                }
                if let data = change.data {
                    try updater.put(Tile(coordinate: change.coordinate, data: data), hash: ContentHash(of: data), modificationTime: now)
                } else {
                    try updater.remove(change.coordinate)
                }
            }
            try updater.finish()
        } catch {
            updater.abort()
            throw error
        }
        return updater.committedAggregateHash
    }

    /// Reads the patched store again and checks its aggregate hash.
    private static func confirm(_ store: TileStoreLocation, has expected: ContentHash) throws {
        let found = try AggregateHashCalculator.compute(try store.openReader())
        guard found == expected else {
            throw TileStoreError(.corrupt, store: store.address,
                                 message: "has agg_tiles_hash \(found.hex) once patched, not the expected \(expected.hex)",
                                 hint: "another process may have changed it meanwhile; check it with `tilesync verify`")
        }
    }

    /// The keys whose value differs between the base's metadata and the target's as a sync
    /// would write it into the base (zooms, bounds and format filled in from the tiles where
    /// missing, then as the base's kind stores them), with the target's value (NULL for a key
    /// only the base has); keys stores manage themselves are left out.
    static func metadataChanges(from base: TileMetadata, to target: TileMetadata, in kind: any TileStoreKind) -> TileMetadata {
        SyncMetadata.patchChanges(from: base, to: target, in: kind)
    }
}
