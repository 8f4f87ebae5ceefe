import Foundation

/// What one sync knows before it plans: both stores and their readers, whether the destination
/// existed, the sync state of the last run (when one is kept and still applies), and the
/// version stamps that tell whether either store changed since. The stores are asked, through
/// their resources and capabilities, where the state lives and whether one is worth keeping.
final class SyncContext {
    let source: TileStoreLocation
    let destination: TileStoreLocation
    let options: TileSynchronizer.Options
    let sourceReader: any TileReader
    /// The source reader when it rewrites tiles (`--tile-format`, `--drop-empty`, `--compress`):
    /// its memo, first-tile format and planned-tiles cursor.
    let rewritingSource: RewritingTileReader?
    /// Closed (set to nil) before the destination is changed.
    var destinationReader: (any TileReader)?
    /// The destination's `agg_tiles_hash` before the sync, computed from the start when a
    /// patch is written.
    var patchBaseHash: SyncPatchBaseHash?
    /// The destination's `agg_tiles_hash` recorded by the last sync, while the destination is
    /// as that sync left it (`SyncState.recordedAggregateHash`).
    let recordedDestinationAggregateHash: ContentHash?
    private let destinationStampAtStart: String?
    let destinationExisted: Bool
    let identity: String
    let statePath: String?
    private(set) var state: SyncState?
    let sourceStamp: String?
    private(set) var sourceUnchanged: Bool
    private(set) var destinationUnchanged: Bool
    /// The destination's listing carries the modification times its updater sets.
    let destinationKeepsTimes: Bool
    /// The time given to tiles that have none of their own, in ns since 1970.
    let syncTime = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
    var warnings: [String] = []
    /// The source's tiles within the filter, where it can tell before reading them.
    var sourceAmount: TileAmount?

    deinit {
        patchBaseHash?.abandon()
    }

    init(source: TileStoreLocation, destination: TileStoreLocation, options: TileSynchronizer.Options, sourceReader: any TileReader,
         rewritingSource: RewritingTileReader? = nil) throws {
        self.source = source
        self.destination = destination
        self.options = options
        self.sourceReader = rewritingSource ?? sourceReader
        self.rewritingSource = rewritingSource
        let resource = destination.resource
        destinationExisted = resource.exists
        destinationReader = destinationExisted ? try destination.openReader() : nil
        destinationKeepsTimes = destination.kind.capabilities.listing.contains(.modificationTimes)
        let identity = [source.kind.name, source.resource.identity, source.options.description(excluding: source.kind.requestOptionNames),
                        destination.options.description(excluding: destination.kind.requestOptionNames),
                        Self.describe(options.filter)].joined(separator: "|")
        self.identity = identity
        // Parts of a sharded sync may run side by side on one machine: each keeps its own state.
        let statePath = options.recordsState && Self.keepsState(source, destination)
            ? resource.syncStatePath.map { path in options.filter.shard.map { path + ".shard-\($0.index)-of-\($0.count)" } ?? path } : nil
        self.statePath = statePath
        var warnings: [String] = []
        if let statePath, !options.checksum, destinationExisted {
            state = SyncState.load(path: statePath, identity: identity, warnings: &warnings)
        } else {
            state = nil
        }
        self.warnings = warnings
        sourceStamp = source.resource.versionStamp ?? sourceReader.roles.downloadKeeping?.downloadsStamp
        let destinationStamp = resource.versionStamp
        destinationStampAtStart = destinationStamp
        recordedDestinationAggregateHash = destinationExisted && destination.kind.capabilities.maintainsAggregateHash
            ? statePath.flatMap { SyncState.recordedAggregateHash(path: $0, destinationStamp: destinationStamp) } : nil
        let asksListedTilesAgain = options.filter.tiles != nil && sourceReader.roles.downloadKeeping != nil
        sourceUnchanged = state != nil && sourceStamp != nil && state?.sourceStamp == sourceStamp && !asksListedTilesAgain
        destinationUnchanged = state != nil && destinationStamp != nil && state?.destinationStamp == destinationStamp
    }

    /// Forgets a damaged state: the sync plans as if there were none, and says why.
    func dropState(_ damage: SyncStateDamage) {
        state = nil
        sourceUnchanged = false
        destinationUnchanged = false
        warnings.append(damage.description)
    }

    /// A state is kept where the destination has a place for one and the quick check needs it:
    /// unless both listings carry per-tile modification times (two folders), which is all
    /// that check compares, as in rsync.
    static func keepsState(_ source: TileStoreLocation, _ destination: TileStoreLocation) -> Bool {
        let bothKeepTimes = [source, destination].allSatisfy { $0.kind.capabilities.listing.contains(.modificationTimes) }
        return !bothKeepTimes && destination.resource.syncStatePath != nil
    }

    /// The summary of a sync that the state shows is not needed (neither store changed since
    /// the last one), or nil.
    func unchangedSummary() -> TileSynchronizer.Summary? {
        guard sourceUnchanged && destinationUnchanged, let state, !options.delete || state.count(inSource: false) == 0 else { return nil }
        var summary = TileSynchronizer.Summary(source: source, destination: destination)
        summary.unchanged = state.count(inSource: true)
        summary.kept = state.count(inSource: false)
        summary.quickCheckSkippedComparison = true
        summary.warnings = warnings
        return summary
    }

    /// The order both indexes are merged in: the source's, unless it comes from the state, then
    /// the destination's, else zoom, column, row.
    var mergeOrder: TileOrder {
        if !sourceUnchanged, sourceReader.order != .unordered { return sourceReader.order }
        if !destinationUnchanged, let order = destinationReader?.order, order != .unordered { return order }
        return .zoomColumnRow
    }

    /// Ends the source's download when it keeps one (a tile server: the sync is complete, its
    /// partial store goes, its validators stay) and returns the source's stamp for the next
    /// state: the one taken before the sync, or the download state's after it.
    func finishSource() -> String? {
        guard let downloads = sourceReader.roles.downloadKeeping else { return sourceStamp }
        if !options.dryRun { downloads.finishDownloads(keepingValidators: true) }
        return downloads.downloadsStamp
    }

    /// The destination's version stamp now (after a change).
    var destinationStampNow: String? { destination.resource.versionStamp }

    /// The recorded `agg_tiles_hash`, for a run that did not change the destination, while no
    /// one else did either.
    var recordedAggregateHashStillValid: ContentHash? {
        guard let recordedDestinationAggregateHash, destinationStampNow == destinationStampAtStart else { return nil }
        return recordedDestinationAggregateHash
    }

    private static func describe(_ filter: TileFilter) -> String {
        "\(filter.zooms.lowerBound)-\(filter.zooms.upperBound)" + (filter.boundingBox.map { "@\($0)" } ?? "")
            + (filter.region.map { "@region:\($0.fingerprint)" } ?? "")
            + (filter.tiles.map { "@tiles:\($0.fingerprint)" } ?? "")
            + (filter.shard.map { "#\($0)" } ?? "")
    }
}
