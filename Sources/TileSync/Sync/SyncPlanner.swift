/// Phase 1 of a sync: merges the two stores' listings in one order and decides per coordinate
/// (`SyncDecision`), writing the plan to a temporary table and the next sync state as it goes.
/// `each` hears the plan once it is complete, in the merge's order, so a plan started again
/// (without a damaged sync state) reports nothing twice.
final class SyncPlanner {
    private let context: SyncContext
    private let each: ((TileSynchronizer.PlanEntry) -> Void)?
    let plan: SyncPlanTable
    let nextState: SyncStateWriter?
    private(set) var summary: TileSynchronizer.Summary
    /// Tiles whose MD5 had to be computed by reading them (worth recording in a state).
    private(set) var computedHashes = 0
    private let invalid = InvalidCollector()

    init(context: SyncContext, each: ((TileSynchronizer.PlanEntry) -> Void)?) throws {
        self.context = context
        self.each = each
        summary = TileSynchronizer.Summary(source: context.source, destination: context.destination)
        do {
            plan = try SyncPlanTable()
            nextState = try context.statePath.flatMap { path throws(SQLiteError) in
                context.options.dryRun ? nil : try SyncStateWriter(path: path)
            }
        } catch {
            throw TileStoreError(.io, store: context.destination.address, message: "cannot create temporary tables for the sync: \(error)")
        }
    }

    /// Merges both indexes and decides every coordinate.
    /// - Returns: the counts of the plan (metadata not compared yet).
    func makePlan() throws -> TileSynchronizer.Summary {
        let order = context.mergeOrder
        let (sourceIndex, prefetching) = try makeSourceIndex(order: order)
        defer { prefetching?.stop() }
        // Tiles hashed while the source is listed on another thread go through a reader of their own.
        let (source, options) = (context.source, context.options)
        let decision = SyncDecision(context: context, sourceLookup: { try TileSynchronizer.openSource(source, options: options) })
        let merge = TileIndexMerge(source: sourceIndex, destination: try makeDestinationIndex(order: order), order: order)
        while let pair = try merge.next() {
            if context.options.isCancelled() {
                throw TileStoreError(.interrupted, store: context.destination.address, message: "interrupted; the destination was not changed")
            }
            try record(try decision.decide(pair), pair: pair)
        }
        computedHashes = decision.computedHashes
        summary.invalidTiles = invalid.items
        if summary.added + summary.replaced + summary.unchanged == 0, invalid.items.count == 0, !context.sourceUnchanged,
           context.options.filter.isEverything, sourceIndex.skipped.count > 0 {
            throw NoTilesFound.error(source: context.sourceReader, skipped: sourceIndex.skipped)
        }
        if !context.options.delete { summary.bytesToDelete = 0 }
        if let each {
            try plan.rowsInPlanOrder { each(TileSynchronizer.PlanEntry(action: $0.action, coordinate: $0.coordinate, size: $0.size)) }
        }
        return summary
    }

    /// The source's index, and the prefetching thread behind it (to stop) when it has one.
    private func makeSourceIndex(order: TileOrder) throws -> (any TileIndexCursor, PrefetchingIndexCursor?) {
        if context.sourceUnchanged, let state = context.state { return (try state.index(order: order, sourceOnly: true), nil) }
        let reader = context.sourceReader, options = context.options
        let listing = reader.listingKnowsContent && !options.checksum
        let invalid = options.skipInvalid ? { [collector = self.invalid] (error: TileStoreError) in collector.record(error) } : nil
        let progress = Self.progress(of: reader, options: options, total: context.sourceAmount)
        let prefetching = PrefetchingIndexCursor { shouldStop in
            let source = listing ? try reader.listing(matching: options.filter) : try reader.index(matching: options.filter)
            return try SortedTileIndex.sorted(progress.map { ProgressIndexCursor(source, report: $0) } ?? source, from: reader.order,
                                              into: order, store: reader.location.address, invalid: invalid, shouldStop: shouldStop)
        }
        return (prefetching, prefetching)
    }

    /// What tells `options.progress` how far the listing of a source that asks per tile (its
    /// download) has come; nil for other sources, or without `progress`.
    private static func progress(of reader: any TileReader, options: TileSynchronizer.Options,
                                 total: TileAmount?) -> ((_ entries: Int, _ bytes: Int) -> Void)? {
        guard let progress = options.progress, let asking = reader.roles.downloadKeeping else { return nil }
        let tilesTotal = total.flatMap { $0.isLowerBound ? nil : $0.tiles }
        return { entries, bytes in
            progress(TileConverter.Progress(tilesDone: entries, bytesDone: bytes, tilesTotal: tilesTotal, placesDone: asking.placesSettled))
        }
    }

    private func makeDestinationIndex(order: TileOrder) throws -> any TileIndexCursor {
        if context.destinationUnchanged, let state = context.state { return try state.index(order: order, sourceOnly: false) }
        guard let reader = context.destinationReader else { return EmptyIndexCursor() }
        return try SortedTileIndex.cursor(of: reader, matching: context.options.filter, order: order,
                                          listing: reader.listingKnowsContent && !context.options.checksum, invalid: { _ in })
    }

    /// Counts a decision and adds it to the plan and the next state.
    private func record(_ decision: SyncDecision.Outcome, pair: TileIndexPair) throws {
        let coordinate = pair.coordinate
        let newTime = { (source: TileIndexEntry) in
            self.context.destinationKeepsTimes ? source.modificationTime ?? self.context.syncTime : nil
        }
        do {
            switch decision {
            case .add(let s):
                try plan.add(coordinate, action: .add, size: s.size, sourceModificationTime: s.modificationTime)
                try nextState?.add(coordinate, size: s.size, hash: s.hash, sourceModificationTime: s.modificationTime,
                                   destinationModificationTime: newTime(s), inSource: true)
                summary.added += 1
                summary.bytesToAdd += s.size
            case .delete(let d):
                try plan.add(coordinate, action: .delete, size: d.size, sourceModificationTime: nil)
                summary.deleted += 1
                summary.bytesToDelete += d.size
            case .keep(let d):
                try nextState?.add(coordinate, size: d.size, hash: d.hash, sourceModificationTime: nil,
                                   destinationModificationTime: d.modificationTime, inSource: false)
                summary.kept += 1
                summary.bytesToDelete += d.size
            case .unchanged(let s, let d, let hash):
                summary.unchanged += 1
                try nextState?.add(coordinate, size: s.size, hash: hash, sourceModificationTime: s.modificationTime,
                                   destinationModificationTime: d.modificationTime, inSource: true)
            case .replace(let s, let sourceHash):
                try plan.add(coordinate, action: .replace, size: s.size, sourceModificationTime: s.modificationTime)
                try nextState?.add(coordinate, size: s.size, hash: sourceHash, sourceModificationTime: s.modificationTime,
                                   destinationModificationTime: newTime(s), inSource: true)
                summary.replaced += 1
                summary.bytesToReplace += s.size
            }
        } catch {
            throw TileStoreError(.io, store: context.destination.address, message: "temporary table of the sync failed: \(error)")
        }
    }
}
