import Foundation

/// The tiles of several sources as one stream in (zoom, column, row) order: their listings,
/// each sorted on disk when the source has another order, walked side by side; at a coordinate
/// several sources hold, the `DuplicatePolicy` picks the source whose bytes are read.
final class MergedTileCursor: TileCursor {
    private let indexes: [any TileIndexCursor]
    private let sources: MergedSources
    private let tally: MergeTally
    private var heads: [TileIndexEntry?] = []
    private var started = false
    private static let order = TileOrder.zoomColumnRow

    init(indexes: [any TileIndexCursor], sources: MergedSources, tally: MergeTally) {
        self.indexes = indexes
        self.sources = sources
        self.tally = tally
    }

    var skipped: SkippedItems {
        indexes.reduce(SkippedItems()) { $0.adding($1.skipped) }
    }

    func next() throws -> Tile? {
        guard let (coordinate, holders) = try nextHolders() else { return nil }
        let decision = try sources.decide(coordinate, holders: holders)
        tally.record(winner: decision.source, holders: holders.count, alike: decision.alike)
        return Tile(coordinate: coordinate, data: decision.data)
    }

    /// The next coordinate any source holds, with the sources that hold it (in source order).
    func nextHolders() throws -> (TileCoordinate, [(source: Int, entry: TileIndexEntry)])? {
        if !started {
            started = true
            heads = try indexes.map { try $0.next() }
        }
        var smallest: TileCoordinate?
        for case let head? in heads where smallest.map({ Self.order.precedes(head.coordinate, $0) }) ?? true {
            smallest = head.coordinate
        }
        guard let coordinate = smallest else { return nil }
        var holders: [(source: Int, entry: TileIndexEntry)] = []
        for (source, head) in heads.enumerated() {
            guard let head, head.coordinate == coordinate else { continue }
            holders.append((source, head))
            heads[source] = try indexes[source].next()
        }
        return (coordinate, holders)
    }
}
