import Foundation

/// Several stores read as one (`MergedStoreKind`): tiles stream in (zoom, column, row) order
/// from the sources' sorted listings, a coordinate several hold is decided by the
/// `DuplicatePolicy`, and the metadata follows `MergedMetadata`'s rules. Every engine reads it
/// as any store.
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
    var order: TileOrder { .zoomColumnRow }

    func metadata() throws -> TileMetadata {
        try MergedMetadata.merge(sources.lookups.map(\.metadata), locations: sources.locations, policy: sources.policy)
    }

    func tiles(matching filter: TileFilter) throws -> any TileCursor {
        let tally = MergeTally(sources: sources.locations.count)
        onCursor(tally)
        return try cursor(matching: filter, tally: tally)
    }

    /// Counts and sizes from the sources' listings (the size of the source the policy would
    /// pick where bytes may differ); no tile is read.
    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        let walk = try cursor(matching: filter, tally: MergeTally(sources: sources.locations.count))
        var summary = TileSetSummary()
        while let (coordinate, holders) = try walk.nextHolders() {
            let pick = sources.policy == .override ? holders.last : holders.first
            summary.add(coordinate, size: countingBytes ? pick?.entry.size ?? 0 : 0)
        }
        return summary
    }

    private func cursor(matching filter: TileFilter, tally: MergeTally) throws -> MergedTileCursor {
        let indexes = try sources.lookups.map { lookup in
            let reader = try lookup.openLookupReader()
            reader.setCancellation(isCancelled)
            return try SortedTileIndex.cursor(of: reader, matching: filter, order: .zoomColumnRow, listing: true, shouldStop: isCancelled)
        }
        return MergedTileCursor(indexes: indexes, sources: sources, tally: tally)
    }

    func tile(at coordinate: TileCoordinate) throws -> Data? {
        var holders: [(source: Int, entry: TileIndexEntry)] = []
        for (source, lookup) in sources.lookups.enumerated() {
            guard let data = try lookup.tile(at: coordinate) else { continue }
            holders.append((source, TileIndexEntry(coordinate: coordinate, size: data.count, hash: nil)))
        }
        return holders.isEmpty ? nil : try sources.decide(coordinate, holders: holders).data
    }

    func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool) {
        self.isCancelled = isCancelled
    }

    func declaredTileCompression() throws -> TileCompression? {
        try sources.lookups.first.map { try $0.location.openReader().declaredTileCompression() } ?? nil
    }
}
