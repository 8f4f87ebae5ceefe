import Foundation

/// How a coordinate that several merge inputs hold is decided: equal bytes are never a
/// conflict, the `MergedStoreKind.DuplicatePolicy` picks among different bytes, and a holder that is itself a
/// merge of a group of sources (its `MergeOrigin`) counts as those sources would at its place.
struct MergeDecision {
    let policy: MergedStoreKind.DuplicatePolicy
    /// The sources, named in conflicts.
    let locations: [TileStoreLocation]

    /// The holder (its index in `holders`, which come in source order) whose tile wins, its
    /// bytes, and the origin the tile goes on with (equal bytes count for the first source that
    /// holds them).
    /// - Parameters:
    ///   - defersConflicts: under `abort`, a conflict is returned in the origin (a group merge)
    ///     instead of thrown.
    ///   - bytes: reads the tile of a holder (by its index in `holders`).
    /// - Throws: `TileStoreError` `.duplicateConflict` under `abort` when bytes differ, naming the
    ///   coordinate and both sources; `.corrupt` without holders; read errors.
    func decide(_ coordinate: TileCoordinate, holders: [MergeHolder], defersConflicts: Bool = false,
                bytes read: (Int) throws -> Data) throws -> (holder: Int, data: Data, origin: MergeOrigin) {
        guard let first = holders.first else {
            throw TileStoreError(.corrupt, store: locations.first?.address ?? "", message: "a merged coordinate had no source")
        }
        if holders.count == 1, first.origin.holding != .conflict { return (0, try read(0), first.origin) }
        var known: [Int: Data] = [:]
        func bytes(_ index: Int) throws -> Data {
            if let data = known[index] { return data }
            let data = try read(index)
            known[index] = data
            return data
        }
        let comparison = try compare(holders, bytes: bytes)
        if let differing = comparison.differing {
            guard defersConflicts else { throw conflict(at: coordinate, between: first.origin.source, and: differing) }
            return (0, try bytes(0), MergeOrigin(source: first.origin.source, holding: .conflict, conflictingSource: differing))
        }
        guard let last = holders.last, holders.count > 1 else { return (0, try bytes(0), first.origin) }
        if comparison.alike {
            return (0, try bytes(0), MergeOrigin(source: first.origin.source, holding: .alike, lastSource: last.origin.lastSource))
        }
        guard policy == .override else { return (0, try bytes(0), MergeOrigin(source: first.origin.source, holding: .decided)) }
        let winner = holders.count - 1
        return (winner, try bytes(winner), MergeOrigin(source: last.origin.lastSource, holding: .decided))
    }

    /// Whether the holders' bytes are all the same and each was held alike; under `abort`, the
    /// first source whose bytes differ from the first holder's (a holder's own conflict counts
    /// at its place: holders come in source order, groups of consecutive sources).
    private func compare(_ holders: [MergeHolder], bytes: (Int) throws -> Data) throws -> (alike: Bool, differing: Int?) {
        let first = holders[0]
        if policy == .abort {
            if first.origin.holding == .conflict { return (false, first.origin.conflictingSource) }
            for index in holders.indices.dropFirst() {
                let holder = holders[index]
                if try holder.entry.size != first.entry.size || bytes(index) != bytes(0) { return (false, holder.origin.source) }
                if holder.origin.holding == .conflict { return (false, holder.origin.conflictingSource) }
            }
            return (true, nil)
        }
        let heldAlike = holders.allSatisfy { $0.origin.holding == .single || $0.origin.holding == .alike }
        guard heldAlike, holders.allSatisfy({ $0.entry.size == first.entry.size }) else { return (false, nil) }
        for index in holders.indices.dropFirst() {
            if try bytes(index) != bytes(0) { return (false, nil) }
        }
        return (true, nil)
    }

    private func conflict(at coordinate: TileCoordinate, between first: Int, and second: Int) -> TileStoreError {
        let a = locations[first].address, b = locations[second].address
        return TileStoreError(.duplicateConflict, store: b, item: "tile \(coordinate)",
                              message: "\(a) and \(b) hold different bytes; nothing was written",
                              hint: "--on-duplicate override lets the later source win, ignore keeps the first")
    }
}
