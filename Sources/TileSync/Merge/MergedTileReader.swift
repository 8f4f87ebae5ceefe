import Foundation

/// Several stores read as one (`MergedStoreKind`): tiles stream in the order most sources
/// share (`MergedSources.order`), those sources read as they stream (each opened when the
/// merge reaches its first tile, let go at its last) and the others through listings sorted on
/// disk; a coordinate several hold is decided by the `DuplicatePolicy`, and
/// the metadata follows `MergedMetadata`'s rules. Every engine reads it as any store.
final class MergedTileReader: TileReader {
    let location: TileStoreLocation
    private let sources: MergedSources
    private let onCursor: @Sendable (MergeTally) -> Void
    private var isCancelled: @Sendable () -> Bool = { false }

    init(location: TileStoreLocation, sources: MergedSources, onCursor: @escaping @Sendable (MergeTally) -> Void) {
        self.location = location
        self.sources = sources
        self.onCursor = onCursor
    }

    var schemaDescription: String { "merge of \(sources.locations.count) stores (--on-duplicate \(sources.policy.rawValue))" }
    var order: TileOrder { sources.order }

    func metadata() throws -> TileMetadata {
        try MergedMetadata.merge(sources.lookups.map(\.metadata), locations: sources.locations, policy: sources.policy,
                                 rasterFormatsMayDiffer: sources.rasterFormatsMayDiffer)
    }

    func tiles(matching filter: TileFilter) throws -> any TileCursor {
        let tally = MergeTally(sources: sources.locations.count)
        onCursor(tally)
        return try cursor(matching: filter, tally: tally)
    }

    /// Counts and sizes from the sources' listings (the size of the source the policy would
    /// pick where bytes may differ); no tile is read. Invalid entries are passed over here: the
    /// conversion itself stops at them, or skips and counts them with `--skip-invalid`.
    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        let walk = try cursor(matching: filter, tally: MergeTally(sources: sources.locations.count), listingOnly: true)
        var summary = TileSetSummary()
        while true {
            let next: (TileCoordinate, [(source: Int, entry: TileIndexEntry)])?
            do {
                next = try walk.nextListed()
            } catch let error as TileStoreError where error.kind == .invalidTile {
                continue
            }
            guard let (coordinate, holders) = next else { break }
            let pick = sources.policy == .override ? holders.last : holders.first
            summary.add(coordinate, size: countingBytes ? pick?.entry.size ?? 0 : 0)
        }
        return summary
    }

    /// Sources already in the merge's order stream their tiles (or, with `listingOnly`, their
    /// listings); the others are listed, sorted and looked up.
    private func cursor(matching filter: TileFilter, tally: MergeTally, listingOnly: Bool = false) throws -> MergedTileCursor {
        let order = sources.order
        let isCancelled = isCancelled
        let inputs: [any MergeInput] = try zip(sources.lookups, sources.orders).map { lookup, sourceOrder in
            if sourceOrder == order, !listingOnly {
                let open = { () throws -> any TileCursor in
                    let reader = try lookup.openLookupReader()
                    reader.setCancellation(isCancelled)
                    reader.willStreamOnce()
                    return try reader.tiles(matching: filter)
                }
                let probe = try open()
                let first: TileCoordinate?
                do {
                    first = try probe.next()?.coordinate
                } catch {
                    return StreamedMergeInput(openedCursor: try open(), order: order, store: lookup.location.address)
                }
                return StreamedMergeInput(firstCoordinate: first, order: order, store: lookup.location.address, open: open)
            }
            let reader = try lookup.openLookupReader()
            reader.setCancellation(isCancelled)
            let index = try SortedTileIndex.cursor(of: reader, matching: filter, order: order, listing: true,
                                                   invalid: listingOnly ? { _ in } : nil, shouldStop: isCancelled)
            return ListedMergeInput(index: index, lookup: lookup)
        }
        return MergedTileCursor(inputs: inputs, order: order, sources: sources, tally: tally)
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

    /// The sources, which a writer of their kind may join whole when their tiles do not overlap.
    var joinableStores: JoinableStores? {
        let count = sources.locations.count, onCursor = onCursor
        return JoinableStores(parts: sources.locations) { given in
            let tally = MergeTally(sources: count)
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
