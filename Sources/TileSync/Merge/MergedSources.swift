import Foundation

/// The sources of a merge, opened for lookups (`TileSource`: a store without random access is
/// copied into a private scratch index once; no connection is kept open until a lookup needs
/// one), and the rule that decides a coordinate several hold.
final class MergedSources: @unchecked Sendable {
    let locations: [TileStoreLocation]
    let lookups: [TileSource]
    let policy: MergedStoreKind.DuplicatePolicy
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
    /// How a coordinate several sources hold is decided.
    let decision: MergeDecision
    /// How many sources a merge reads at once at most; more are merged in groups first
    /// (`GroupedMergeCursor`).
    let openLimit: Int
    static let defaultOpenLimit = 32

    /// - Throws: `TileStoreError` when a source cannot be opened.
    init(_ locations: [TileStoreLocation], policy: MergedStoreKind.DuplicatePolicy, comparesDuplicates: Bool = false,
         rasterFormatsMayDiffer: Bool = false, openLimit: Int = MergedSources.defaultOpenLimit) throws {
        self.locations = locations
        self.policy = policy
        self.openLimit = max(2, openLimit)
        decision = MergeDecision(policy: policy, locations: locations, comparesBytes: comparesDuplicates)
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

    /// The source whose tile wins `coordinate` (looked up in every source) and its bytes, nil
    /// when none holds a tile there.
    /// - Throws: as `MergeDecision.decide`; read errors.
    func winner(at coordinate: TileCoordinate) throws -> (source: Int, data: Data)? {
        var holders: [MergeHolder] = []
        var bytes: [Data] = []
        for (source, lookup) in lookups.enumerated() {
            guard let data = try lookup.tile(at: coordinate) else { continue }
            holders.append(MergeHolder(input: source, entry: TileIndexEntry(coordinate: coordinate, size: data.count, hash: nil),
                                       origin: MergeOrigin(source: source, listedSize: data.count)))
            bytes.append(data)
        }
        guard !holders.isEmpty else { return nil }
        var comparing = decision
        comparing.comparesBytes = true
        let decided = try comparing.decide(coordinate, holders: holders) { bytes[$0] }
        return (decided.origin.source, decided.data)
    }
}
