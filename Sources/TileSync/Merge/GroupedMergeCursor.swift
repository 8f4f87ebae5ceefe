import Foundation

/// A merge of more sources than may be open at once (`MergedSources.openLimit`): groups of
/// consecutive sources are merged one after another into runs on a scratch file (`MergeRuns`,
/// each tile kept with its `MergeOrigin`), the runs are merged in groups again while there are
/// more than the limit, and the last runs stream as the merge. Decisions and counts are those
/// of one merge of all the sources: `ignore` and `override` pick the same source group by group,
/// and an `abort` conflict found inside a group is kept with its tile and raised in order.
/// The runs are written at the first `next()`; an error there (an invalid tile) leaves the
/// cursor ready to go on past it.
final class GroupedMergeCursor: TileCursor {
    /// Opens a merge of the sources in a range, deferring conflicts and counting nothing.
    typealias GroupMerge = (Range<Int>) throws -> MergedTileCursor

    private let groups: [Range<Int>]
    private let openGroup: GroupMerge
    private let mergeRuns: ([RunMergeInput], _ final: Bool) -> MergedTileCursor
    private let limit: Int
    private let isCancelled: () -> Bool
    private var runs: MergeRuns?
    private var nextGroup = 0
    private var open: MergedTileCursor?
    private var final: MergedTileCursor?
    /// Invalid tiles passed over while writing the runs (`writeRuns(passingInvalid:)`).
    private(set) var passedInvalid = 0

    /// - Parameters:
    ///   - groups: the ranges of sources merged first, consecutive.
    ///   - mergeRuns: a merge of runs, counting into the merge's tally when `final`.
    ///   - written: runs written already (by a summary), merged at once.
    ///   - isCancelled: polled while runs are merged into runs (the sources poll it themselves).
    init(groups: [Range<Int>], limit: Int, written: MergeRuns? = nil, isCancelled: @escaping () -> Bool = { false },
         openGroup: @escaping GroupMerge, mergeRuns: @escaping ([RunMergeInput], _ final: Bool) -> MergedTileCursor) {
        self.groups = groups
        self.limit = max(2, limit)
        self.isCancelled = isCancelled
        self.openGroup = openGroup
        self.mergeRuns = mergeRuns
        runs = written
        if written != nil { nextGroup = groups.count }
    }

    var skipped: SkippedItems {
        final?.skipped ?? runs?.runs.reduce(SkippedItems()) { $0.adding($1.skipped) } ?? SkippedItems()
    }

    func next() throws -> Tile? {
        try finalCursor().next()
    }

    /// The next coordinate and its holders, for a summary.
    func nextListed() throws -> (TileCoordinate, [MergeHolder])? {
        try finalCursor().nextListed()
    }

    /// Writes every group's run (and merges runs down to the limit), passing invalid tiles over
    /// when asked (counted in `passedInvalid`).
    /// - Returns: the runs the merge streams from.
    /// - Throws: `TileStoreError` from the sources, `POSIXFileError` from the scratch file.
    @discardableResult
    func writeRuns(passingInvalid: Bool = false) throws -> MergeRuns {
        let runs = try self.runs ?? MergeRuns()
        self.runs = runs
        while nextGroup < groups.count || open != nil {
            let cursor = try open ?? openGroup(groups[nextGroup])
            if open == nil {
                open = cursor
                nextGroup += 1
            }
            while true {
                let next: (Tile, MergeOrigin)?
                do {
                    next = try cursor.nextWithOrigin()
                } catch let error as TileStoreError where passingInvalid && error.kind == .invalidTile {
                    passedInvalid += 1
                    continue
                }
                guard let (tile, origin) = next else { break }
                try runs.append(tile, origin: origin)
            }
            runs.endRun(skipped: cursor.skipped)
            open = nil
        }
        var level = runs
        while level.runs.count > limit {
            level = try mergeLevel(level)
        }
        self.runs = level
        return level
    }

    private func finalCursor() throws -> MergedTileCursor {
        if let final { return final }
        let runs = try writeRuns()
        let cursor = mergeRuns(runs.runs.indices.map(runs.input), true)
        final = cursor
        return cursor
    }

    /// Merges the runs of `level` in groups of `limit` into the runs of a new scratch file.
    private func mergeLevel(_ level: MergeRuns) throws -> MergeRuns {
        let merged = try MergeRuns()
        for start in stride(from: 0, to: level.runs.count, by: limit) {
            let cursor = mergeRuns((start..<min(start + limit, level.runs.count)).map(level.input), false)
            var count = 0
            while let (tile, origin) = try cursor.nextWithOrigin() {
                try merged.append(tile, origin: origin)
                count += 1
                if count % 4096 == 0, isCancelled() {
                    throw TileStoreError(.interrupted, store: merged.file.path, message: "interrupted")
                }
            }
            merged.endRun(skipped: cursor.skipped)
        }
        return merged
    }
}
