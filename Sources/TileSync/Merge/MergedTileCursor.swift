import Foundation

/// The tiles of several inputs as one stream in the merge's order: the inputs' heads walked
/// side by side (`MergeInput`); at a coordinate several hold, the `MergeDecision` picks the
/// input whose bytes go on.
final class MergedTileCursor: TileCursor {
    private let inputs: [any MergeInput]
    /// The source each input reads (for inputs that do not give an origin of their own).
    private let sourcePositions: [Int]
    private let decision: MergeDecision
    private let tally: MergedStoreKind.Tally?
    private let defersConflicts: Bool
    private let order: TileOrder
    /// The heads of the inputs read and not taken.
    @exclusivity(unchecked) private var heads = MergeHeadHeap()
    /// Inputs whose head is to be read (all at first; then those just taken).
    @exclusivity(unchecked) private var unread: [Int]
    /// The holders of the coordinate last walked, kept to reuse its storage.
    @exclusivity(unchecked) private var holders: [MergeHolder] = []
    /// A coordinate to decide again among the holders left after one's tile proved invalid.
    @exclusivity(unchecked) private var pendingHolders: (TileCoordinate, [MergeHolder])?

    /// - Parameters:
    ///   - sourcePositions: the source of each input, in source order.
    ///   - tally: counts what the merge did (nil: a merge of one group, counted when the groups
    ///     are merged).
    ///   - defersConflicts: an `abort` conflict goes on in the tile's origin instead of stopping.
    init(inputs: [any MergeInput], sourcePositions: [Int], order: TileOrder, decision: MergeDecision,
         tally: MergedStoreKind.Tally?, defersConflicts: Bool = false) {
        self.inputs = inputs
        unread = Array(inputs.indices.reversed())
        self.sourcePositions = sourcePositions
        self.order = order
        self.decision = decision
        self.tally = tally
        self.defersConflicts = defersConflicts
    }

    var skipped: SkippedItems {
        inputs.reduce(SkippedItems()) { $0.adding($1.skipped) }
    }

    func next() throws -> Tile? {
        try nextWithOrigin()?.tile
    }

    /// The next tile and where it came from.
    /// - Throws: `TileStoreError` from the inputs and the decision (`.duplicateConflict`).
    /// A tile whose bytes turn out invalid when the merge reads them (an input that reads tiles
    /// only when asked) is thrown as a stream throws it, and its coordinate goes on with the
    /// other holders at the next call, as if that input had not held it.
    func nextWithOrigin() throws -> (tile: Tile, origin: MergeOrigin)? {
        let next = try pendingHolders ?? nextHolders()
        pendingHolders = nil
        guard let (coordinate, holders) = next else { return nil }
        var taken = holders
        defer { for holder in taken { inputs[holder.input].take() } }
        var reading: Int?
        let decided: (holder: Int, data: Data, origin: MergeOrigin)
        do {
            decided = try decision.decide(coordinate, holders: holders, defersConflicts: defersConflicts) {
                reading = $0
                return try inputs[holders[$0].input].headData()
            }
        } catch let error as TileStoreError where error.kind == .invalidTile {
            if let reading, holders.count > 1 {
                var others = holders
                taken = [others.remove(at: reading)]
                pendingHolders = (coordinate, others)
            }
            throw error
        }
        tally?.record(decided.origin)
        return (Tile(coordinate: coordinate, data: decided.data), decided.origin)
    }

    /// The next coordinate any input holds, with the inputs that hold it (in source order),
    /// taken from the inputs.
    func nextListed() throws -> (TileCoordinate, [MergeHolder])? {
        guard let next = try nextHolders() else { return nil }
        for holder in next.1 { inputs[holder.input].take() }
        return next
    }

    /// The smallest head coordinate (inputs whose head was taken or not read yet read it
    /// first, and wait for the next call when that fails); then the inputs there give their
    /// heads (an input not opened yet opens now, when the merge reaches its first tile).
    private func nextHolders() throws -> (TileCoordinate, [MergeHolder])? {
        while let position = unread.last {
            let head = try inputs[position].headCoordinate()
            unread.removeLast()
            if let head { heads.push(head, input: position, order: order) }
        }
        guard let coordinate = heads.popSmallest(into: &unread) else { return nil }
        holders.removeAll(keepingCapacity: true)
        for position in unread {
            let input = inputs[position]
            if let entry = try input.head(), entry.coordinate == coordinate {
                let origin = input.headOrigin()
                    ?? MergeOrigin(source: sourcePositions[position], listedSize: input.headSizeIsKnown ? entry.size : nil)
                holders.append(MergeHolder(input: position, entry: entry, origin: origin))
            }
        }
        return (coordinate, holders)
    }
}
