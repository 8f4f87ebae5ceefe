import Foundation

/// How a coordinate that several merge inputs hold is decided: equal bytes are never a
/// conflict, the `MergedStoreKind.DuplicatePolicy` picks among different bytes, and a holder that is itself a
/// merge of a group of sources (its `MergeOrigin`) counts as those sources would at its place.
///
/// Under `ignore` and `override` the losers' bytes are not read: holders are told equal or
/// different only where that is free (sizes that differ, hashes the listings give), else
/// counted as `uncompared`, unless `comparesBytes`. Under `abort` every holder is compared.
/// Sizes tell bytes apart where the holders' listings give them (`MergeOrigin.listedSize`).
struct MergeDecision {
    let policy: MergedStoreKind.DuplicatePolicy
    /// The sources, named in conflicts.
    let locations: [TileStoreLocation]
    /// Read holders whose listed sizes do not tell them apart, to tell equal bytes from
    /// different ones under `ignore` and `override` (`abort` always does).
    var comparesBytes = false

    /// True when only the winning holder's bytes are read (`ignore` and `override` without
    /// `comparesBytes`): inputs may then list coordinates without reading their tiles.
    var readsOnlyWinners: Bool { policy != .abort && !comparesBytes }

    /// What is known of a coordinate's holders' bytes.
    private enum Likeness {
        case alike
        case different
        case unknown
    }

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
        let readsOnce = readsOnlyWinners
        var known: [Int: Data] = [:]
        func bytes(_ index: Int) throws -> Data {
            if readsOnce { return try read(index) }
            if let data = known[index] { return data }
            let data = try read(index)
            known[index] = data
            return data
        }
        guard let last = holders.last, holders.count > 1 else {
            if policy == .abort, first.origin.holding == .conflict {
                guard defersConflicts else { throw conflict(at: coordinate, between: first.origin.source, and: first.origin.conflictingSource) }
            }
            return (0, try bytes(0), first.origin)
        }
        var sized: Int?, sizesDiffer = false
        for holder in holders {
            guard let size = holder.origin.listedSize else { continue }
            if let listed = sized, listed != size { sizesDiffer = true }
            sized = sized ?? size
        }
        if sizesDiffer { sized = nil }
        if policy == .abort {
            if let differing = try firstDiffering(holders, bytes: bytes) {
                guard defersConflicts else { throw conflict(at: coordinate, between: first.origin.source, and: differing) }
                return (0, try bytes(0), MergeOrigin(source: first.origin.source, holding: .conflict, conflictingSource: differing,
                                                     listedSize: sized))
            }
            return (0, try bytes(0), MergeOrigin(source: first.origin.source, holding: .alike, lastSource: last.origin.lastSource,
                                                 listedSize: sized))
        }
        let likeness = try self.likeness(holders, sizesDiffer: sizesDiffer, bytes: bytes)
        if likeness == .alike {
            return (0, try bytes(0), MergeOrigin(source: first.origin.source, holding: .alike, lastSource: last.origin.lastSource,
                                                 listedSize: sized))
        }
        let holding: MergeOrigin.Holding = likeness == .different ? .decided : .uncompared
        guard policy == .override else {
            return (0, try bytes(0), MergeOrigin(source: first.origin.source, holding: holding, listedSize: sized))
        }
        let winner = holders.count - 1
        return (winner, try bytes(winner), MergeOrigin(source: last.origin.lastSource, holding: holding, listedSize: sized))
    }

    /// Under `abort`: the first source whose bytes differ from the first holder's (a holder's
    /// own conflict counts at its place: holders come in source order, groups of consecutive
    /// sources), nil when all are alike.
    private func firstDiffering(_ holders: [MergeHolder], bytes: (Int) throws -> Data) throws -> Int? {
        let first = holders[0]
        if first.origin.holding == .conflict { return first.origin.conflictingSource }
        for index in holders.indices.dropFirst() {
            let holder = holders[index]
            if let size = holder.origin.listedSize, let firstSize = first.origin.listedSize, size != firstSize { return holder.origin.source }
            if try bytes(index) != bytes(0) { return holder.origin.source }
            if holder.origin.holding == .conflict { return holder.origin.conflictingSource }
        }
        return nil
    }

    /// Under `ignore` and `override`: alike when every holder was held alike and all bytes are
    /// equal, different when a holder's group decided or the listed sizes or hashes differ;
    /// the bytes are read only when `comparesBytes`, else the answer is unknown.
    private func likeness(_ holders: [MergeHolder], sizesDiffer: Bool, bytes: (Int) throws -> Data) throws -> Likeness {
        let first = holders[0]
        if holders.contains(where: { $0.origin.holding == .decided || $0.origin.holding == .conflict }) { return .different }
        if sizesDiffer { return .different }
        let heldAlike = holders.allSatisfy { $0.origin.holding == .single || $0.origin.holding == .alike }
        if heldAlike, let hash = first.entry.hash, holders.allSatisfy({ $0.entry.hash != nil }) {
            return holders.allSatisfy { $0.entry.hash == hash } ? .alike : .different
        }
        guard comparesBytes else { return .unknown }
        for index in holders.indices.dropFirst() where try bytes(index) != bytes(0) { return .different }
        return heldAlike ? .alike : .unknown
    }

    private func conflict(at coordinate: TileCoordinate, between first: Int, and second: Int) -> TileStoreError {
        let a = locations[first].address, b = locations[second].address
        return TileStoreError(.duplicateConflict, store: b, item: "tile \(coordinate)",
                              message: "\(a) and \(b) hold different bytes; nothing was written",
                              hint: "--on-duplicate override lets the later source win, ignore keeps the first")
    }
}
