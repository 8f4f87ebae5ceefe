import Foundation

/// The tiles of several sources as one stream in the merge's order: the sources' heads walked
/// side by side (`MergeInput`); at a coordinate several sources hold, the `DuplicatePolicy`
/// picks the source whose bytes go on.
final class MergedTileCursor: TileCursor {
    private let inputs: [any MergeInput]
    private let sources: MergedSources
    private let tally: MergeTally
    private let order: TileOrder
    /// The inputs' head coordinates of the current step (kept between tiles).
    private var heads: [TileCoordinate?] = []

    init(inputs: [any MergeInput], order: TileOrder, sources: MergedSources, tally: MergeTally) {
        self.inputs = inputs
        self.order = order
        self.sources = sources
        self.tally = tally
    }

    var skipped: SkippedItems {
        inputs.reduce(SkippedItems()) { $0.adding($1.skipped) }
    }

    func next() throws -> Tile? {
        guard let (coordinate, holders) = try nextHolders() else { return nil }
        defer { for holder in holders { inputs[holder.source].take() } }
        let decision = try sources.decide(coordinate, holders: holders) { try inputs[$0].headData() }
        tally.record(winner: decision.source, holders: holders.count, alike: decision.alike)
        return Tile(coordinate: coordinate, data: decision.data)
    }

    /// The next coordinate any source holds, with the sources that hold it (in source order),
    /// taken from the inputs.
    func nextListed() throws -> (TileCoordinate, [(source: Int, entry: TileIndexEntry)])? {
        guard let next = try nextHolders() else { return nil }
        for holder in next.1 { inputs[holder.source].take() }
        return next
    }

    /// The smallest head coordinate; then the inputs there give their heads (an input not
    /// opened yet opens now, when the merge reaches its first tile).
    private func nextHolders() throws -> (TileCoordinate, [(source: Int, entry: TileIndexEntry)])? {
        heads.removeAll(keepingCapacity: true)
        var smallest: TileCoordinate?
        for input in inputs {
            let head = try input.headCoordinate()
            heads.append(head)
            if let head, smallest.map({ order.precedes(head, $0) }) ?? true { smallest = head }
        }
        guard let coordinate = smallest else { return nil }
        var holders: [(source: Int, entry: TileIndexEntry)] = []
        for (source, head) in heads.enumerated() where head == coordinate {
            if let entry = try inputs[source].head(), entry.coordinate == coordinate { holders.append((source, entry)) }
        }
        return (coordinate, holders)
    }
}
