import Synchronization

/// Several stores of any kinds read as one, in the order given, with a `MergedStoreKind.DuplicatePolicy` for
/// coordinates several hold. Not in the registry (no address names it): made with
/// `TileStoreLocation.merging(_:onDuplicate:)`. Read-only.
public struct MergedStoreKind: TileStoreKind {
    /// The sources, first to last.
    public let sources: [TileStoreLocation]
    /// How a coordinate several sources hold with different bytes is decided.
    public let policy: MergedStoreKind.DuplicatePolicy
    /// The tiles are re-encoded into one compression on the way (`--compress`), so sources may
    /// differ in compression (never in format).
    public let compressionsMayDiffer: Bool
    /// Raster tiles are re-encoded into one format on the way (`--tile-format`), so raster
    /// sources may differ in format (PNG, JPEG, WebP; never raster and vector).
    public let rasterFormatsMayDiffer: Bool
    /// Under `ignore` and `override`, read the tiles several sources hold whose listed sizes do
    /// not tell them apart (the same, or not listed: an MBTiles lists none) to count equal ones
    /// (`Tally.heldAlike`) apart from different ones; else they are decided by the policy unread
    /// (`Tally.decidedUncompared`) and a losing tile is never read.
    public let comparesDuplicates: Bool
    /// How many sources a stream reads at once at most; past it, groups of that many are
    /// merged into scratch runs first (`GroupedMergeCursor`).
    var openLimit = MergedSources.defaultOpenLimit
    private let latest = LatestTally()

    /// A merge of `sources` (at least one).
    public init(sources: [TileStoreLocation], policy: MergedStoreKind.DuplicatePolicy, compressionsMayDiffer: Bool = false,
                rasterFormatsMayDiffer: Bool = false, comparesDuplicates: Bool = false) {
        self.sources = sources
        self.policy = policy
        self.comparesDuplicates = comparesDuplicates
        self.compressionsMayDiffer = compressionsMayDiffer
        self.rasterFormatsMayDiffer = rasterFormatsMayDiffer
    }

    public var name: String { "merge" }
    public var displayName: String { "merge" }
    public var capabilities: TileStoreCapabilities {
        TileStoreCapabilities(nativeOrder: .zoomColumnRow, hasCheapRandomAccess: true, listing: [], canStoreHashes: false,
                              updates: .rewrite, deduplication: .none, preferredWriteOrder: .zoomColumnRow,
                              maintainsAggregateHash: false, isLocalIndexFile: false, keepsGrids: false)
    }
    public var optionNames: Set<String> { [] }

    /// The merge as a location (its address lists the sources' addresses joined by ` + `).
    public var location: TileStoreLocation {
        TileStoreLocation(kind: self, address: sources.map(\.address).joined(separator: " + "))
    }

    /// What the last stream of the merge did (tiles per source, coordinates held twice), once
    /// a conversion or sync has read it; nil before.
    public var tally: MergedStoreKind.Tally? { latest.value }

    public func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim { .none }

    public func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> MergedStoreKind.Options {
        MergedStoreKind.Options()
    }

    public func openReader(at location: TileStoreLocation, options: MergedStoreKind.Options) throws(TileStoreError) -> any TileReader {
        do {
            let merged = try MergedSources(sources, policy: policy, comparesDuplicates: comparesDuplicates,
                                           rasterFormatsMayDiffer: rasterFormatsMayDiffer, openLimit: openLimit)
            try MergedEncodings.check(merged, compressionsMayDiffer: compressionsMayDiffer, rasterFormatsMayDiffer: rasterFormatsMayDiffer)
            let latest = latest
            return MergedTileReader(location: location, sources: merged) { latest.value = $0 }
        } catch {
            throw TileStoreError(wrapping: error, store: location.address)
        }
    }

    public func makeWriter(at location: TileStoreLocation, options: MergedStoreKind.Options, settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        throw TileStoreError(.unsupported, store: location.address, message: "a merge of stores is read, not written")
    }

    public func makeUpdater(at location: TileStoreLocation, options: MergedStoreKind.Options) throws(TileStoreError) -> any TileUpdater {
        throw TileStoreError(.unsupported, store: location.address, message: "a merge of stores is read, not written")
    }

    public func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        MergedResource(sources: sources)
    }
}

extension TileStoreLocation {
    /// Several stores read as one, in this order; `policy` decides a coordinate several hold
    /// with different bytes. Sources of different tile formats, unless `rasterFormatsMayDiffer`
    /// (raster tiles are re-encoded into one format on the way), or compressions, unless
    /// `compressionsMayDiffer` (the tiles are recompressed on the way), are refused when it is
    /// opened. The address lists the sources' addresses joined by ` + `. `comparesDuplicates`:
    /// as `MergedStoreKind.comparesDuplicates`.
    public static func merging(_ sources: [TileStoreLocation], onDuplicate policy: MergedStoreKind.DuplicatePolicy,
                               compressionsMayDiffer: Bool = false, rasterFormatsMayDiffer: Bool = false,
                               comparesDuplicates: Bool = false) -> TileStoreLocation {
        MergedStoreKind(sources: sources, policy: policy, compressionsMayDiffer: compressionsMayDiffer,
                        rasterFormatsMayDiffer: rasterFormatsMayDiffer, comparesDuplicates: comparesDuplicates).location
    }
}
