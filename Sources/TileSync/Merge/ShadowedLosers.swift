import Foundation

/// The inputs a merge passes over while it follows another that shadows them
/// (`MergedTileCursor`'s shadowed runs): they count what they held in a part of the run and
/// move past it, side by side on the cores. Used by one thread at a time (the merge's, or the
/// one passing over a part while the merge follows the winner on); it holds the inputs, never
/// the merge cursor, so a pass in flight never keeps the cursor alive.
final class ShadowedLosers: @unchecked Sendable {
    private let inputs: [any MergeInput]
    /// The sources the inputs read, named in errors.
    private let stores: [String]
    private let order: TileOrder
    private let tally: MergedStoreKind.Tally?

    init(inputs: [any MergeInput], stores: [String], order: TileOrder, tally: MergedStoreKind.Tally?) {
        self.inputs = inputs
        self.stores = stores
        self.order = order
        self.tally = tally
    }

    /// Counts what the inputs hold after `from` through `last`, all of which the winner held,
    /// and moves them past it when the counts tell how many coordinates any of them held
    /// (counted as held by several); false, with nothing moved, when they do not.
    /// - Throws: `TileStoreError` from the sources.
    func passOver(from: TileCoordinate, through last: TileCoordinate) throws -> Bool {
        let length = order.sortKey(last) - order.sortKey(from)
        guard length > 0 else { return true }
        guard let counts = try counts(through: last), let held = Self.coordinatesHeld(counts, within: length) else { return false }
        tally?.record(uncompared: held)
        for (input, store) in zip(inputs, stores) {
            guard try input.skipAhead(past: last) else {
                throw TileStoreError(.corrupt, store: store, message: "counted the tiles of a part of the merge but could not pass over them")
            }
        }
        return true
    }

    /// Each input's count of the coordinates it holds through `last`, counted side by side
    /// (each reads its own store); nil when one cannot count.
    private func counts(through last: TileCoordinate) throws -> [Int]? {
        var results = [Result<Int?, any Error>](repeating: .success(nil), count: inputs.count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            nonisolated(unsafe) let inputs = inputs
            DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
                output[index] = Result { try inputs[index].countAhead(through: last) }
            }
        }
        var counts: [Int] = []
        for result in results {
            guard let count = try result.get() else { return nil }
            counts.append(count)
        }
        return counts
    }

    /// How many coordinates of a part of `length` any input held, from each input's count: the
    /// length when one held them all, the count when only one held any; nil when only the
    /// coordinates themselves can tell (or a count is beyond the part).
    static func coordinatesHeld(_ counts: [Int], within length: Int) -> Int? {
        guard counts.allSatisfy({ $0 <= length }) else { return nil }
        if counts.contains(length) { return length }
        let holding = counts.filter { $0 > 0 }
        return holding.count <= 1 ? holding.first ?? 0 : nil
    }
}
