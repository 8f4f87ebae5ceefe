import Foundation

/// Several stores read as one (`MergedStoreKind`): tiles stream in the order most sources
/// share (`MergedSources.order`), those sources read as they stream (each opened when the
/// merge reaches its first tile, let go at its last) and the others through listings sorted on
/// disk; a coordinate several hold is decided by the `MergedStoreKind.DuplicatePolicy`, and
/// the metadata follows `MergedMetadata`'s rules. Every engine reads it as any store.
final class MergedTileReader: TileReader, CancellableReading, GridReading, CompressionDeclaring {
    let location: TileStoreLocation
    private let sources: MergedSources
    private let onCursor: @Sendable (MergedStoreKind.Tally) -> Void
    private var isCancelled: @Sendable () -> Bool = { false }
    /// Runs a summary wrote for a merge of many sources, kept for the conversion that follows.
    private var prepared: (filter: TileFilter, runs: MergeRuns)?

    init(location: TileStoreLocation, sources: MergedSources, onCursor: @escaping @Sendable (MergedStoreKind.Tally) -> Void) {
        self.location = location
        self.sources = sources
        self.onCursor = onCursor
    }

    var schemaDescription: String { "merge of \(sources.locations.count) stores (--on-duplicate \(sources.policy.rawValue))" }
    var order: TileOrder { sources.order }
    /// A lookup asks every source (each keeps a connection for it), so past
    /// `MergedSources.openLimit` sources a sync streams the merge instead.
    var traits: TileReaderTraits { TileReaderTraits(hasCheapRandomAccess: sources.locations.count <= sources.openLimit) }

    func metadata() throws -> TileMetadata {
        try MergedMetadata.merge(sources.lookups.map(\.metadata), locations: sources.locations, policy: sources.policy,
                                 rasterFormatsMayDiffer: sources.rasterFormatsMayDiffer)
    }

    /// One merge of all sources when at most `MergedSources.openLimit` of them are open at any
    /// coordinate (their ranges, from the probes, say so); else a merge in groups, from the runs
    /// a summary wrote when there are some.
    func tiles(matching filter: TileFilter) throws -> any TileCursor {
        let tally = MergedStoreKind.Tally(sources: sources.locations.count)
        onCursor(tally)
        let all = sources.locations.indices
        if let prepared, prepared.filter == filter {
            self.prepared = nil
            return grouped(matching: filter, tally: tally, probed: nil, written: prepared.runs)
        }
        let probed = try all.map { try probe($0, matching: filter) }
        guard MergeOverlap.most(probed.map { $0?.span ?? .whole }, order: sources.order) > sources.openLimit else {
            return try cursor(matching: filter, among: all, probed: probed, tally: tally)
        }
        return grouped(matching: filter, tally: tally, probed: probed, written: nil)
    }

    /// Counts and sizes from the sources' listings (the size of the source the policy would
    /// pick where bytes may differ); no tile is read, unless there are more sources than may be
    /// open at once: then the groups' runs are written (and kept for the conversion that
    /// follows, when no tile was invalid). Invalid entries are passed over here: the conversion
    /// itself stops at them, or skips and counts them with `--skip-invalid`.
    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        let tally = MergedStoreKind.Tally(sources: sources.locations.count)
        let walk: () throws -> (TileCoordinate, [MergeHolder])?
        if sources.locations.count > sources.openLimit {
            let grouped = grouped(matching: filter, tally: tally, probed: nil, written: nil)
            let runs = try grouped.writeRuns(passingInvalid: true)
            if grouped.passedInvalid == 0 { prepared = (filter, runs) }
            walk = grouped.nextListed
        } else {
            let inputs = try sources.locations.indices.map { try listedInput($0, matching: filter, listingOnly: true) }
            walk = MergedTileCursor(inputs: inputs, sourcePositions: Array(sources.locations.indices), order: sources.order,
                                    decision: sources.decision, tally: tally).nextListed
        }
        var summary = TileSetSummary()
        while true {
            let next: (TileCoordinate, [MergeHolder])?
            do {
                next = try walk()
            } catch let error as TileStoreError where error.kind == .invalidTile {
                continue
            }
            guard let (coordinate, holders) = next else { break }
            let pick = sources.policy == .override ? holders.last : holders.first
            summary.add(coordinate, size: countingBytes ? pick?.entry.size ?? 0 : 0)
        }
        return summary
    }

    /// The sources in `range`: those probed stream their tiles, the others are listed, sorted
    /// and looked up.
    private func cursor(matching filter: TileFilter, among range: Range<Int>, probed: [StreamedMergeInput?], tally: MergedStoreKind.Tally?,
                        defersConflicts: Bool = false) throws -> MergedTileCursor {
        let inputs: [any MergeInput] = try range.map { position in
            if let streamed = probed[position] { return streamed }
            return try listedInput(position, matching: filter, listingOnly: false)
        }
        return MergedTileCursor(inputs: inputs, sourcePositions: Array(range), order: sources.order, decision: sources.decision,
                                tally: tally, defersConflicts: defersConflicts, shadowsRuns: true)
    }

    /// A source listed in the merge's order (sorted on disk when it streams in another), each
    /// tile looked up; with `listingOnly`, invalid entries are passed over.
    private func listedInput(_ position: Int, matching filter: TileFilter, listingOnly: Bool) throws -> ListedMergeInput {
        let lookup = sources.lookups[position]
        let reader = try lookup.openLookupReader()
        reader.setCancellation(isCancelled)
        let index = try SortedTileIndex.cursor(of: reader, matching: filter, order: sources.order, listing: true,
                                               invalid: listingOnly ? { _ in } : nil, shouldStop: isCancelled)
        return ListedMergeInput(index: index, lookup: lookup)
    }

    /// A source that streams in the merge's order, probed for its first coordinate (and its
    /// last, where the store can say) and opened again when the merge reaches it; nil for a
    /// source in another order. When only winners are read, a source that lists its
    /// coordinates more cheaply than it reads its tiles reads only the tiles that win.
    private func probe(_ position: Int, matching filter: TileFilter) throws -> StreamedMergeInput? {
        guard sources.orders[position] == sources.order else { return nil }
        let lookup = sources.lookups[position]
        let order = sources.order, isCancelled = isCancelled, readsOnlyWinners = sources.decision.readsOnlyWinners
        let open = { () throws -> (any TileReader, any LazyTileCursor) in
            let reader = try lookup.openLookupReader()
            reader.setCancellation(isCancelled)
            let streaming = reader.roles.mergeStreaming
            streaming?.willStreamOnce()
            if readsOnlyWinners, let lazy = try streaming?.lazyTiles(matching: filter) { return (reader, lazy) }
            return (reader, PrereadLazyTileCursor(try reader.tiles(matching: filter), store: lookup.location.address))
        }
        let (reader, probe) = try open()
        let first: TileCoordinate?
        do {
            first = try probe.next()
        } catch {
            return StreamedMergeInput(openedCursor: try open().1, order: order, store: lookup.location.address)
        }
        let last = first == nil ? nil : reader.roles.mergeStreaming?.lastStreamedCoordinate(matching: filter)
        return StreamedMergeInput(firstCoordinate: first, lastCoordinate: last, order: order, store: lookup.location.address) {
            try open().1
        }
    }

    /// A merge of more sources than `MergedSources.openLimit` overlapping, group by group
    /// (`probed`: the sources probed already, else each group probes its own).
    private func grouped(matching filter: TileFilter, tally: MergedStoreKind.Tally, probed: [StreamedMergeInput?]?,
                         written: MergeRuns?) -> GroupedMergeCursor {
        let limit = sources.openLimit, count = sources.locations.count
        let groups = stride(from: 0, to: count, by: limit).map { $0..<min($0 + limit, count) }
        let order = sources.order, decision = sources.decision, lookups = sources.lookups
        return GroupedMergeCursor(groups: groups, limit: limit, written: written, isCancelled: isCancelled, openGroup: { [self] range in
            for lookup in lookups { lookup.closeIdleReaders() }
            var inputs = probed ?? Array(repeating: nil, count: count)
            if probed == nil {
                for position in range { inputs[position] = try probe(position, matching: filter) }
            }
            return try cursor(matching: filter, among: range, probed: inputs, tally: nil, defersConflicts: true)
        }, mergeRuns: { inputs, isFinal in
            MergedTileCursor(inputs: inputs, sourcePositions: Array(inputs.indices), order: order, decision: decision,
                             tally: isFinal ? tally : nil, defersConflicts: !isFinal)
        })
    }

    func tile(at coordinate: TileCoordinate) throws -> Data? {
        try sources.winner(at: coordinate)?.data
    }

    /// The sources' UTFGrids by the tiles' rule (`MergedGridCursor`); nil when no source has any.
    func grids(matching filter: TileFilter) throws -> (any UTFGridCursor)? {
        var any = false
        for lookup in sources.lookups where try lookup.openLookupReader().grids(matching: filter) != nil { any = true }
        return any ? MergedGridCursor(sources: sources, filter: filter) : nil
    }

    var roles: TileReaderRoles { TileReaderRoles(joinableStores: joinableStores, cancellation: self, grids: self, compressionDeclaration: self) }

    /// The sources, which a writer of their kind may join whole when their tiles do not overlap.
    private var joinableStores: JoinableStores {
        let count = sources.locations.count, onCursor = onCursor
        return JoinableStores(parts: sources.locations) { given in
            let tally = MergedStoreKind.Tally(sources: count)
            for (source, tiles) in given.enumerated() { tally.record(given: tiles, bySource: source) }
            onCursor(tally)
        }
    }

    func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool) {
        self.isCancelled = isCancelled
    }

    func declaredTileCompression() throws -> TileCompression? {
        try sources.lookups.first.map { try $0.location.openReader().declaredTileCompression() } ?? nil
    }
}
