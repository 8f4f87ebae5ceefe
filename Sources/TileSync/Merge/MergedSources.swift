import Foundation

/// The sources of a merge, opened for lookups (`TileSource`: a store without random access is
/// copied into a private scratch index once; no connection is kept open until a lookup needs
/// one), and the rule that decides a coordinate several hold.
final class MergedSources: @unchecked Sendable {
    let locations: [TileStoreLocation]
    let lookups: [TileSource]
    let policy: DuplicatePolicy
    /// Raster sources may differ in format (they are re-encoded into one on the way).
    let rasterFormatsMayDiffer: Bool
    /// The order each source streams in (its lookup reader's).
    let orders: [TileOrder]
    /// The encoding of each source's first tile (`MergedEncodings`), nil for a source without
    /// tiles or whose first tile cannot be read.
    let firstEncodings: [SniffedTileFormat?]
    /// The order the merge streams in: the one most sources stream in already (the first
    /// source's among equals), so that only the others are sorted.
    let order: TileOrder

    /// - Throws: `TileStoreError` when a source cannot be opened.
    init(_ locations: [TileStoreLocation], policy: DuplicatePolicy, rasterFormatsMayDiffer: Bool = false) throws {
        self.locations = locations
        self.policy = policy
        self.rasterFormatsMayDiffer = rasterFormatsMayDiffer
        var lookups: [TileSource] = [], orders: [TileOrder] = [], encodings: [SniffedTileFormat?] = []
        for location in locations {
            let lookup = try TileSource(location: location)
            let reader = try lookup.openLookupReader()
            orders.append(reader.order)
            encodings.append(try MergedEncodings.firstEncoding(of: reader, metadata: lookup.metadata))
            lookup.closeIdleReaders()
            lookups.append(lookup)
        }
        self.lookups = lookups
        self.orders = orders
        firstEncodings = encodings
        order = Self.sharedOrder(orders)
    }

    static func sharedOrder(_ orders: [TileOrder]) -> TileOrder {
        let ordered = orders.filter { $0 != .unordered }
        let counts = ordered.map { candidate in ordered.count { $0 == candidate } }
        guard let most = counts.max(), let index = counts.firstIndex(of: most) else { return .zoomColumnRow }
        return ordered[index]
    }

    /// The winning source at a coordinate the listed `holders` hold, its bytes, and whether all
    /// holders had the same bytes.
    /// - Throws: `TileStoreError` `.duplicateConflict` under `abort` when the bytes differ,
    ///   `.corrupt` when a listed tile cannot be read back, read errors.
    /// - Parameter bytes: reads the tile's bytes from a source (by its position).
    func decide(_ coordinate: TileCoordinate, holders: [(source: Int, entry: TileIndexEntry)],
                bytes read: (Int) throws -> Data) throws -> (source: Int, data: Data, alike: Bool) {
        guard let first = holders.first else {
            throw TileStoreError(.corrupt, store: locations.first?.address ?? "", message: "a merged coordinate had no source")
        }
        guard holders.count > 1 else { return (first.source, try read(first.source), true) }
        let sizesAlike = holders.allSatisfy { $0.entry.size == first.entry.size }
        if sizesAlike {
            let bytes = try holders.map { try read($0.source) }
            if bytes.allSatisfy({ $0 == bytes[0] }) { return (first.source, bytes[0], true) }
            let chosen = try choose(coordinate, holders: holders, bytes: bytes)
            return (holders[chosen].source, bytes[chosen], false)
        }
        let chosen = try choose(coordinate, holders: holders, bytes: nil)
        return (holders[chosen].source, try read(holders[chosen].source), false)
    }

    /// The source whose tile wins `coordinate` (looked up in every source) and its bytes, nil
    /// when none holds a tile there.
    /// - Throws: as `decide`.
    func winner(at coordinate: TileCoordinate) throws -> (source: Int, data: Data)? {
        var holders: [(source: Int, entry: TileIndexEntry)] = []
        var bytes: [Int: Data] = [:]
        for (source, lookup) in lookups.enumerated() {
            guard let data = try lookup.tile(at: coordinate) else { continue }
            holders.append((source, TileIndexEntry(coordinate: coordinate, size: data.count, hash: nil)))
            bytes[source] = data
        }
        guard !holders.isEmpty else { return nil }
        let decision = try decide(coordinate, holders: holders) { bytes[$0] ?? Data() }
        return (decision.source, decision.data)
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
}
