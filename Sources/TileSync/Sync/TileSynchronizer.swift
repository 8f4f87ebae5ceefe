import Foundation

/// `diff` and `sync` between any two stores, in four steps: plan (`SyncPlanner` merges both
/// listings in one order), decide (`SyncDecision` per coordinate, from sizes, times and MD5s),
/// apply (`SyncApplier` through the destination's `TileUpdater`) and record (the next
/// `SyncState`, where the destination keeps one). When the state shows that neither store
/// changed since the last sync, nothing is compared. It sees the stores only through their
/// locations, readers, updaters, resources and capabilities.
public enum TileSynchronizer {
    /// The plan that would make `destination` equal to `source` (including deletions); changes
    /// nothing.
    /// - Parameter each: called for every add, replace and delete, in index order.
    /// - Throws: `TileStoreError` when either store cannot be read.
    public static func diff(from source: TileStoreLocation, to destination: TileStoreLocation,
                            options: TileSynchronizer.Options = TileSynchronizer.Options(), each: ((TileSynchronizer.PlanEntry) -> Void)? = nil) throws -> TileSynchronizer.Summary {
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
                            options: TileSynchronizer.Options = TileSynchronizer.Options(), each: ((TileSynchronizer.PlanEntry) -> Void)? = nil) throws -> TileSynchronizer.Summary {
        var options = options
        if options.transforms.compression != nil || options.transforms.rasterEncoding != nil { options.checksum = true }
        do {
            return try run(from: source, to: destination, options: options, each: each)
        } catch {
            throw TileStoreError(wrapping: error, store: destination.address)
        }
    }

    private static func run(from source: TileStoreLocation, to destination: TileStoreLocation, options: TileSynchronizer.Options,
                            each: ((TileSynchronizer.PlanEntry) -> Void)?) throws -> TileSynchronizer.Summary {
        let started = Date()
        try source.refuseSameStore(as: destination)
        if SyncInitialCopy.applies(from: source, to: destination, options: options) {
            return try SyncInitialCopy.run(from: source, to: destination, options: options, each: each, started: started)
        }
        let rewritingSource = try openRewritingSource(source, options: options, memoBeside: destination)
        let sourceReader = try rewritingSource ?? source.openReader()
        sourceReader.setCancellation(options.isCancelled)
        try sourceReader.roles.downloadKeeping?.keepDownloads(beside: destination, shard: options.filter.shard,
                                                        recording: !options.dryRun && options.recordsState)
        if !options.dryRun {
            destination.resource.removeStaleTemporaries()
            try destination.resource.recoverInterruptedUpdate()
        }
        let context = try SyncContext(source: source, destination: destination, options: options, sourceReader: sourceReader,
                                      rewritingSource: rewritingSource)
        if var unchanged = context.unchangedSummary() {
            unchanged.notes += rewritingSource?.rewriterNotes ?? []
            unchanged.seconds = Date().timeIntervalSince(started)
            return unchanged
        }
        // Before either store is listed: a listing expands what a small store may claim.
        context.sourceAmount = try TileAmountCheck.count(sourceReader, filter: options.filter, limits: options.limits)
        if let destinationReader = context.destinationReader {
            _ = try TileAmountCheck.count(destinationReader, filter: options.filter, limits: options.limits)
        }
        var summary = try plan(context, each: each)
        if let rewriting = rewritingSource {
            do {
                try rewriting.finishMemo()
            } catch {
                summary.warnings.append("\(error); the next sync re-encodes every tile once to compare it")
            }
            if options.transforms.rasterEncoding != nil { summary.rasterReencoding = rewriting.tally.value.raster }
            summary.tilesWithoutLayers = rewriting.tally.value.withoutLayers
            summary.notes += rewriting.rewriterNotes
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Plans, then applies and records unless there is nothing to write or it is a dry run.
    private static func plan(_ context: SyncContext, each: ((TileSynchronizer.PlanEntry) -> Void)?) throws -> TileSynchronizer.Summary {
        // A tile server's download has a tile at hand to learn the format from once it is planned.
        let downloads = context.sourceReader.roles.downloadKeeping != nil
        let preparedFirst = downloads ? nil : try SyncMetadata.prepare(context)
        let current = try context.destinationReader?.metadata() ?? TileMetadata()
        if context.options.patchPath != nil, context.destinationExisted, !context.options.dryRun,
           context.destination.kind.capabilities.maintainsAggregateHash {
            context.patchBaseHash = context.recordedDestinationAggregateHash.map { SyncPatchBaseHash(known: $0, store: context.destination.address) }
                ?? SyncPatchBaseHash(context.destination, isCancelled: context.options.isCancelled)
        }
        var planner = try SyncPlanner(context: context, each: each)
        var summary: TileSynchronizer.Summary
        do {
            summary = try planner.makePlan()
        } catch let damage as SyncStateDamage {
            context.dropState(damage)
            planner = try SyncPlanner(context: context, each: each)
            summary = try planner.makePlan()
        }
        var prepared = try preparedFirst ?? SyncMetadata.prepare(context)
        if summary.kept > 0, !context.destination.kind.capabilities.maintainsAggregateHash {
            prepared = prepared.droppingAggregateHash()
        }
        summary.metadataChanged = SyncMetadata.differs(prepared.metadata, from: current, in: context.destination.kind)
        var updater: (any TileUpdater)?
        let grids = try compareGrids(context, updater: &updater, into: &summary)
        summary.uncarried = (try context.sourceReader.roles.inspection?.uncarriedContent() ?? []) + summary.uncarried
        summary.notes = context.sourceReader.notes + (context.destinationReader?.notes ?? [])
        summary.warnings = context.warnings + summary.uncarried.map {
            UncarriedContent.warning($0, source: context.source.address, destination: context.destination.address)
        }
        var destinationReader = context.destinationReader
        context.destinationReader = nil
        if !context.options.dryRun, let limit = context.options.maxDelete, summary.deleted > limit {
            throw TileStoreError(.limitExceeded, store: context.destination.address,
                                 message: "the sync would delete \(summary.deleted) tiles, more than the \(limit) of --max-delete; nothing was changed",
                                 hint: "check the source, or pass --max-delete \(summary.deleted) to allow it")
        }
        if context.options.dryRun || (summary.isInSync && context.destinationExisted) {
            let sourceStamp = context.finishSource()
            if let nextState = planner.nextState, planner.computedHashes > 0 || context.state == nil || sourceStamp != context.sourceStamp {
                try? nextState.finish(identity: context.identity, sourceStamp: sourceStamp, destinationStamp: context.destinationStampNow,
                                      destinationAggregateHash: context.recordedAggregateHashStillValid)
            }
            return summary
        }
        let committedHash = try carryOut(planner.plan, nextState: planner.nextState, context: context, grids: grids, updater: updater,
                                         metadata: (current, prepared), destinationReader: &destinationReader, summary: &summary)
        summary.created = !context.destinationExisted
        summary.wroteNothing = false
        if let purge = context.options.purgeList {
            summary.purgedURLs = try purge.write(plan: planner.plan, fileExtension: prepared.format.format.fileExtension,
                                                 layout: context.destination.options.layout ?? .xyz, metadataChanged: summary.metadataChanged)
        }
        let sourceStamp = context.finishSource()
        try? planner.nextState?.finish(identity: context.identity, sourceStamp: sourceStamp, destinationStamp: context.destinationStampNow,
                                       destinationAggregateHash: committedHash)
        return summary
    }

    /// Writes the patch first when asked (then lets the destination's reader go), and applies
    /// the plan; a patch whose change failed is withdrawn.
    /// - Returns: the `agg_tiles_hash` the destination's commit wrote, when it computed one.
    private static func carryOut(_ plan: SyncPlanTable, nextState: SyncStateWriter?, context: SyncContext, grids: UTFGridComparison?, updater: (any TileUpdater)?,
                                 metadata: (current: TileMetadata, prepared: PreparedMetadata), destinationReader: inout (any TileReader)?,
                                 summary: inout TileSynchronizer.Summary) throws -> ContentHash? {
        var patch: SyncPatch?
        let applying = try updater ?? context.destination.makeUpdater()
        if let path = context.options.patchPath {
            guard let reader = destinationReader else {
                throw TileStoreError(.notFound, store: context.destination.address,
                                     message: "--write-patch needs an existing destination: a patch turns its copy before the sync into its copy after")
            }
            let written = try SyncPatch(path: path, context: context, plan: plan, currentMetadata: metadata.current,
                                        preparedMetadata: metadata.prepared.metadata)
            try written.arrangeSealing(context: context, destinationReader: reader, updater: applying)
            patch = written
        }
        destinationReader = nil
        do {
            try SyncApplier(context: context, plan: plan, nextState: nextState, grids: grids)
                .apply(metadata: metadata.prepared.metadata, format: metadata.prepared.format, through: applying)
        } catch {
            patch?.withdraw()
            throw error
        }
        summary.patch = patch?.sealed
        return applying.committedAggregateHash
    }

    /// The UTFGrids of both stores compared (nil when neither keeps any, or the destination
    /// cannot keep them: then the source's are counted into one not-carried item).
    /// - Parameter updater: made here (to ask whether it keeps grids) when a store has grids and
    ///   the run is not dry; the sync then applies through it.
    private static func compareGrids(_ context: SyncContext, updater: inout (any TileUpdater)?,
                                     into summary: inout TileSynchronizer.Summary) throws -> UTFGridComparison? {
        let filter = context.options.filter
        let source = try context.sourceReader.grids(matching: filter)
        let destination = try context.destinationReader?.grids(matching: filter)
        guard source != nil || destination != nil else { return nil }
        var accepts = context.destination.kind.capabilities.keepsGrids
        if accepts, !context.options.dryRun {
            let made = try context.destination.makeUpdater()
            updater = made
            accepts = made.acceptsGrids
        }
        guard accepts else {
            guard let source else { return nil }
            var count = 0, ignored = SkippedItems()
            while try TileConverter.nextGrid(source, skipInvalid: true, invalid: &ignored) != nil { count += 1 }
            if count > 0 {
                summary.uncarried.append(context.destination.kind.capabilities.keepsGrids
                    ? .grids(count, reason: "its grids are views over the normalized UTFGrid tables, which TileSync does not change")
                    : .grids(count, destinationKind: context.destination.kind.displayName))
            }
            return nil
        }
        let grids = try UTFGridComparison(source: source, destination: destination, store: context.destination.address,
                                          skipInvalid: context.options.skipInvalid, isCancelled: context.options.isCancelled)
        summary.gridsAdded = grids.added
        summary.gridsReplaced = grids.replaced
        summary.gridsUnchanged = grids.unchanged
        if context.options.delete { summary.gridsDeleted = grids.onlyInDestination } else { summary.gridsKept = grids.onlyInDestination }
        for item in grids.invalid.named { summary.invalidTiles.record(item.item, reason: item.reason) }
        return grids
    }

    /// The source's reader, seen rewritten when the options ask for it.
    static func openSource(_ source: TileStoreLocation, options: TileSynchronizer.Options) throws -> any TileReader {
        try openRewritingSource(source, options: options) ?? source.openReader()
    }

    /// The source's reader seen rewritten (`RewritingTileReader`), nil when the options ask for
    /// no rewriting; with the memo of rewritten tiles beside the sync state of `destination`
    /// when given.
    static func openRewritingSource(_ source: TileStoreLocation, options: TileSynchronizer.Options,
                                    memoBeside destination: TileStoreLocation? = nil) throws -> RewritingTileReader? {
        guard !options.transforms.isEmpty else { return nil }
        let reader = try source.openReader()
        guard let rewriter = try TileRewriter(settings: options.transforms, reader: reader) else {
            return nil
        }
        let memoPath = destination.flatMap { destination in
            options.recordsState ? destination.resource.syncStatePath.map { path in
                path + (options.filter.shard.map { ".shard-\($0.index)-of-\($0.count)" } ?? "") + ".rewrites"
            } : nil
        }
        return RewritingTileReader(reader, rewriter: rewriter, memoPath: memoPath)
    }
}
