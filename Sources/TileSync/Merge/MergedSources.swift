import Foundation

/// The sources of a merge, opened for lookups (`TileSource`: a store without random access is
/// copied into a private scratch index once), and the rule that decides a coordinate several
/// hold.
final class MergedSources: @unchecked Sendable {
    let locations: [TileStoreLocation]
    let lookups: [TileSource]
    let policy: DuplicatePolicy

    /// - Throws: `TileStoreError` when a source cannot be opened.
    init(_ locations: [TileStoreLocation], policy: DuplicatePolicy) throws {
        self.locations = locations
        self.policy = policy
        lookups = try locations.map { try TileSource(location: $0) }
    }

    /// The winning source at a coordinate the listed `holders` hold, its bytes, and whether all
    /// holders had the same bytes.
    /// - Throws: `TileStoreError` `.duplicateConflict` under `abort` when the bytes differ,
    ///   `.corrupt` when a listed tile cannot be read back, read errors.
    func decide(_ coordinate: TileCoordinate,
                holders: [(source: Int, entry: TileIndexEntry)]) throws -> (source: Int, data: Data, alike: Bool) {
        guard let first = holders.first else {
            throw TileStoreError(.corrupt, store: locations.first?.address ?? "", message: "a merged coordinate had no source")
        }
        guard holders.count > 1 else { return (first.source, try data(first.source, coordinate), true) }
        let sizesAlike = holders.allSatisfy { $0.entry.size == first.entry.size }
        if sizesAlike {
            let bytes = try holders.map { try data($0.source, coordinate) }
            if bytes.allSatisfy({ $0 == bytes[0] }) { return (first.source, bytes[0], true) }
            let chosen = try choose(coordinate, holders: holders, bytes: bytes)
            return (holders[chosen].source, bytes[chosen], false)
        }
        let chosen = try choose(coordinate, holders: holders, bytes: nil)
        return (holders[chosen].source, try data(holders[chosen].source, coordinate), false)
    }

    /// The index in `holders` the policy picks among different bytes.
    private func choose(_ coordinate: TileCoordinate, holders: [(source: Int, entry: TileIndexEntry)], bytes: [Data]?) throws -> Int {
        switch policy {
        case .override: return holders.count - 1
        case .ignore: return 0
        case .abort:
            let differing = bytes.flatMap { list in list.indices.first { list[$0] != list[0] } }
                ?? holders.indices.first { holders[$0].entry.size != holders[0].entry.size } ?? 1
            let a = locations[holders[0].source].address, b = locations[holders[differing].source].address
            throw TileStoreError(.duplicateConflict, store: b, item: "tile \(coordinate)",
                                 message: "\(a) and \(b) hold different bytes; nothing was written",
                                 hint: "--on-duplicate override lets the later source win, ignore keeps the first")
        }
    }

    private func data(_ source: Int, _ coordinate: TileCoordinate) throws -> Data {
        guard let data = try lookups[source].tile(at: coordinate) else {
            throw TileStoreError(.corrupt, store: locations[source].address, item: "tile \(coordinate)",
                                 message: "was listed but cannot be read back (changed meanwhile?)")
        }
        return data
    }
}
