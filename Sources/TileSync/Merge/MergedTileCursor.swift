import Foundation

/// The tiles of several inputs as one stream in the merge's order: the inputs' heads walked
/// side by side (`MergeInput`); at a coordinate several hold, the `MergeDecision` picks the
/// input whose bytes go on.
///
/// Under `ignore` and `override` (only winners read), when one input has won over the same
/// others at many consecutive coordinates (sources that overlap), the merge follows that input
/// alone while it holds the next coordinate and no other input's head comes first: it wins each
/// of those, whatever the others hold. The others wait, then count what they held in the run
/// and move past it in one step each (`MergeInput.countAhead`, `skipAhead`: an MBTiles counts and
/// seeks in its index), or are walked through it when they cannot. Tiles, order, errors and
/// counts are those of the walk coordinate by coordinate.
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
    /// Follows one input alone while it wins (`ShadowedRun`); false for a group's merge, whose
    /// inputs carry origins of their own.
    private let shadowsRuns: Bool
    @exclusivity(unchecked) private var shadowed: ShadowedRun?
    @exclusivity(unchecked) private var streak = WinningStreak()
    /// After a shadowed run: the losers' coordinates through this sort key are walked and taken
    /// (and counted as held by several when their counts did not say), not merged.
    @exclusivity(unchecked) private var passing: (through: Int, counting: Bool)?

    /// Consecutive coordinates that one input held and won from others.
    private struct ShadowedRun {
        let winner: Int
        /// The coordinate the losers were taken at, where the run starts.
        let start: TileCoordinate
        /// The last coordinate the winner gave in the run.
        var last: TileCoordinate
        let losers: ShadowedLosers
        /// Where the losers stand: they counted and passed over the run up to here.
        var passedOver: TileCoordinate
        /// A part of the run the losers are passing over on another thread meanwhile.
        var inFlight: PassingOver?
        /// The losers could not count a part: they are walked from `passedOver` when the run ends.
        var walksLosers = false
    }

    /// The losers' pass over a part of a run (`passOver`), running on another thread while the
    /// merge follows the winner on; read only after `done` is waited for.
    private final class PassingOver: @unchecked Sendable {
        let through: TileCoordinate
        let done = DispatchGroup()
        var outcome: Result<Bool, any Error> = .success(false)

        init(through: TileCoordinate) {
            self.through = through
        }
    }

    /// Coordinates of a run the losers pass over on another thread once the winner is this far
    /// ahead of them.
    private static let passOverStride = 8192

    /// Consecutive coordinates one input has won from others; at `threshold` a shadowed run
    /// starts. A short run doubles the threshold (its counting and seeking cost more than the
    /// walk it saved), a long one halves it.
    private struct WinningStreak {
        var winner = -1
        var key = -1
        var length = 0
        var threshold = 32

        mutating func adapt(toRunOf runLength: Int) {
            threshold = runLength < 64 ? min(threshold * 2, 4096) : max(32, threshold / 2)
            winner = -1
            length = 0
        }
    }

    /// - Parameters:
    ///   - sourcePositions: the source of each input, in source order.
    ///   - tally: counts what the merge did (nil: a merge of one group, counted when the groups
    ///     are merged).
    ///   - defersConflicts: an `abort` conflict goes on in the tile's origin instead of stopping.
    ///   - shadowsRuns: the inputs are sources read directly (no group's runs): a run that one
    ///     input wins may be followed alone.
    init(inputs: [any MergeInput], sourcePositions: [Int], order: TileOrder, decision: MergeDecision,
         tally: MergedStoreKind.Tally?, defersConflicts: Bool = false, shadowsRuns: Bool = false) {
        self.inputs = inputs
        unread = Array(inputs.indices.reversed())
        self.sourcePositions = sourcePositions
        self.order = order
        self.decision = decision
        self.tally = tally
        self.defersConflicts = defersConflicts
        self.shadowsRuns = shadowsRuns && decision.readsOnlyWinners && !defersConflicts && order != .unordered
    }

    deinit {
        shadowed?.inFlight?.done.wait()
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
        if shadowed != nil, let followed = try nextShadowed() { return followed }
        let next = try pendingHolders ?? nextHoldersPastRun()
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
        if shadowsRuns { note(winner: decided.holder, at: coordinate, holders: holders) }
        return (Tile(coordinate: coordinate, data: decided.data), decided.origin)
    }

    /// Counts a win towards a shadowed run, and starts one at the streak's threshold.
    private func note(winner holder: Int, at coordinate: TileCoordinate, holders: [MergeHolder]) {
        let winner = holders[holder].input
        let key = order.sortKey(coordinate)
        guard holders.count > 1, winner == streak.winner, key == streak.key + 1 else {
            streak.winner = holders.count > 1 ? winner : -1
            streak.key = key
            streak.length = 0
            return
        }
        streak.key = key
        streak.length += 1
        guard streak.length >= streak.threshold else { return }
        streak.length = 0
        let losers = holders.filter { $0.input != winner }
        guard losers.allSatisfy({ $0.entry.hash == nil && inputs[$0.input].countsAhead }) else { return }
        let shadowedLosers = ShadowedLosers(inputs: losers.map { inputs[$0.input] },
                                            stores: losers.map { decision.locations[sourcePositions[$0.input]].address },
                                            order: order, tally: tally)
        shadowed = ShadowedRun(winner: winner, start: coordinate, last: coordinate, losers: shadowedLosers, passedOver: coordinate)
    }

    /// The winner's next tile while it holds the coordinate after the run's last and no other
    /// input's head comes first; nil once the run ended (the losers then moved past it).
    private func nextShadowed() throws -> (tile: Tile, origin: MergeOrigin)? {
        guard var run = shadowed else { return nil }
        let winner = inputs[run.winner]
        let lastKey = order.sortKey(run.last)
        guard let coordinate = try winner.headCoordinate(), case let key = order.sortKey(coordinate),
              key == lastKey + 1, key < heads.smallestKey ?? Int.max else {
            try endShadowedRun()
            return nil
        }
        if lastKey - order.sortKey(run.passedOver) >= Self.passOverStride {
            try passOverInBackground()
            run = shadowed ?? run
        }
        let data: Data
        do {
            data = try winner.headData()
        } catch let error as TileStoreError where error.kind == .invalidTile {
            try endShadowedRun()
            winner.take()
            throw error
        }
        winner.take()
        run.last = coordinate
        shadowed = run
        let origin = MergeOrigin(source: sourcePositions[run.winner])
        tally?.record(origin)
        return (Tile(coordinate: coordinate, data: data), origin)
    }

    /// Ends a shadowed run: the losers count the coordinates they hold in what is left of it and
    /// move past it (each coordinate counts once as held by several), or are walked through it
    /// when they cannot count. The run's winner and losers then read their heads as after any
    /// coordinate.
    private func endShadowedRun() throws {
        guard var run = shadowed else { return }
        try settlePassOver(of: &run, waiting: true)
        shadowed = run
        if !run.walksLosers, order.sortKey(run.last) > order.sortKey(run.passedOver) {
            if try run.losers.passOver(from: run.passedOver, through: run.last) {
                run.passedOver = run.last
            } else {
                run.walksLosers = true
            }
        }
        shadowed = nil
        let through = order.sortKey(run.last)
        let length = through - order.sortKey(run.start)
        streak.adapt(toRunOf: length)
        tally?.record(followed: length)
        passing = (through, run.walksLosers)
    }

    /// Starts the losers' pass over the run so far on another thread (after the last one
    /// settled), so that counting goes on beside the merge.
    private func passOverInBackground() throws {
        guard var run = shadowed else { return }
        try settlePassOver(of: &run, waiting: false)
        shadowed = run
        guard run.inFlight == nil, !run.walksLosers, order.sortKey(run.last) - order.sortKey(run.passedOver) >= Self.passOverStride else { return }
        let pass = PassingOver(through: run.last)
        let losers = run.losers, from = run.passedOver
        DispatchQueue.global().async(group: pass.done) {
            pass.outcome = Result { try losers.passOver(from: from, through: pass.through) }
        }
        run.inFlight = pass
        shadowed = run
    }

    /// Takes in the pass in flight once it is done (waiting for it when asked): the losers then
    /// stand past its part of the run, or are to be walked from where they stood.
    /// - Throws: what the pass threw.
    private func settlePassOver(of run: inout ShadowedRun, waiting: Bool) throws {
        guard let pass = run.inFlight else { return }
        if waiting {
            pass.done.wait()
        } else if pass.done.wait(timeout: .now()) == .timedOut {
            return
        }
        run.inFlight = nil
        if try pass.outcome.get() {
            run.passedOver = pass.through
        } else {
            run.walksLosers = true
        }
    }

    /// `nextHolders`, first walking past the coordinates a shadowed run left to its losers.
    private func nextHoldersPastRun() throws -> (TileCoordinate, [MergeHolder])? {
        while let (through, counting) = passing {
            guard let next = try nextHolders() else {
                passing = nil
                return nil
            }
            guard order.sortKey(next.0) <= through else {
                passing = nil
                return next
            }
            for holder in next.1 { inputs[holder.input].take() }
            if counting { tally?.record(uncompared: 1) }
        }
        return try nextHolders()
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
