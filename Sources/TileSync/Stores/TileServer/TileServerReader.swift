import Foundation
import Synchronization

/// Reads a tile server (`https://host/{z}/{x}/{y}.png`, or a TileJSON document naming such
/// templates): it has no index, so the tiles read are those of the filter's zooms and area
/// (a region, a box; the TileJSON bounds and zooms when none is given), each asked for once.
/// The amount is known before the first request (`amount(matching:upTo:)`), so `--max-tiles`
/// refuses a run before it starts. Attached to a destination (`keepDownloads`), it keeps a
/// `TileDownloadState` there: fresh tiles are not asked again, stale ones conditionally, and an
/// interrupted run is continued.
final class TileServerReader: DownloadKeepingReader, CancellableReading, StoreInspection {
    let location: TileStoreLocation
    let endpoint: TileServerEndpoint
    let client: TileServerClient
    /// Set before a read starts (a reader belongs to one thread at a time).
    private(set) var isCancelled: @Sendable () -> Bool = { false }
    private let counts = Mutex(TileServerCounts())
    /// What downloads into the destination keep, once attached.
    private(set) var downloads: TileDownloadState?
    var roles: TileReaderRoles { TileReaderRoles(downloadKeeping: self, inspection: self, cancellation: self) }
    private let revalidate: Bool
    /// The index fetches the bytes of tiles the download state knows only by size and MD5: the
    /// destination does not exist, so every tile will be written (in the concurrent index, not
    /// one request at a time while writing).
    private var indexNeedsBytes = false

    /// - Throws: `TileStoreError` when the template names no tile or the TileJSON document
    ///   cannot be fetched or read.
    init(location: TileStoreLocation, options: TileServerOptions) throws(TileStoreError) {
        self.location = location
        client = TileServerClient(options: options)
        revalidate = options.revalidate
        endpoint = try TileServerEndpoint.resolve(location, options: options, client: client)
    }

    var schemaDescription: String { TileServerEndpoint.isTemplate(location.address) ? "tile server (URL template)" : "tile server (TileJSON)" }
    var order: TileOrder { .unordered }
    /// With a download state a sync reads the tiles it fetched while planning from there.
    var traits: TileReaderTraits { TileReaderTraits(hasCheapRandomAccess: downloads != nil, isRemote: true) }

    func metadata() throws -> TileMetadata { endpoint.metadata }

    func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool) {
        self.isCancelled = isCancelled
    }

    /// Answers, and tiles and holes the download state settled without a request.
    var placesSettled: Int? {
        counts.withLock { $0.requested + $0.reusedTiles + $0.reusedHoles }
    }

    /// Counts what a read asked and was answered.
    func tally(_ change: (inout TileServerCounts) -> Void) {
        counts.withLock { change(&$0) }
    }

    /// How many tiles were asked for, how many the server did not have, and what the download
    /// state settled without a request.
    var readerNotes: [String] {
        (downloads?.warnings ?? []) + counts.withLock { $0 }.notes + client.protocolNotes
    }

    func keepDownloads(beside destination: TileStoreLocation, shard: TileShard?, recording: Bool) throws(TileStoreError) {
        guard let path = destination.resource.downloadStatePath else { return }
        indexNeedsBytes = !destination.resource.exists
        downloads = try TileDownloadState(path: path + (shard.map { ".shard-\($0.index)-of-\($0.count)" } ?? ""),
                                          source: location.address, revalidate: revalidate, recording: recording)
    }

    var downloadsStamp: String? { downloads?.stamp() }

    var sampleTile: Data? { downloads?.sample }

    func finishDownloads(keepingValidators: Bool) {
        downloads?.finish(keepingRecords: keepingValidators)
    }

    /// The filter narrowed to what the TileJSON document declares: its zooms, and its bounds
    /// when the filter has no area of its own.
    func narrowed(_ filter: TileFilter) throws -> TileFilter {
        var zooms = filter.zooms
        if let declared = endpoint.zooms {
            guard zooms.overlaps(declared) else {
                throw TileStoreError(.invalidOptions, store: location.address,
                                     message: "holds zooms \(declared.lowerBound)-\(declared.upperBound), none of \(zooms.lowerBound)-\(zooms.upperBound)")
            }
            zooms = zooms.clamped(to: declared)
        }
        let box = filter.boundingBox ?? (filter.region == nil ? endpoint.bounds : nil)
        return try TileFilter(minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, boundingBox: box, region: filter.region, tiles: filter.tiles,
                              shard: filter.shard)
    }

    func tiles(matching filter: TileFilter) throws -> any TileCursor {
        TileServerCursor(reader: self, filter: try narrowed(filter))
    }

    /// Sizes and MD5s, from the download state where it settles them.
    func index(matching filter: TileFilter) throws -> any TileIndexCursor {
        TileServerIndexCursor(tiles: TileServerCursor(reader: self, filter: try narrowed(filter), needsBytes: indexNeedsBytes))
    }

    /// One tile, nil when the server has none there: from the partial store of the download
    /// when it holds the tile, else asked for (and remembered).
    /// - Throws: `TileStoreError` as a read does (the request failed, not a tile).
    func tile(at coordinate: TileCoordinate) throws -> Data? {
        if let downloads, let record = downloads.record(at: coordinate), let data = downloads.bytes(at: coordinate, record: record) {
            return data
        }
        guard let url = endpoint.url(for: coordinate) else {
            throw TileStoreError(.invalidOptions, store: location.address, item: "tile \(coordinate)", message: "makes no valid URL")
        }
        let answer: TileServerAnswer
        do {
            answer = try client.answer(url)
        } catch {
            throw TileStoreError(.io, store: location.address, item: "tile \(coordinate)", message: error.description, hint: error.hint)
        }
        guard case .tile(let data, let validators) = answer else {
            if case .noTile(_, let validators) = answer { try? downloads?.rememberHole(at: coordinate, validators: validators) }
            return nil
        }
        try check(data, coordinate: coordinate)
        try? downloads?.remember(data, hash: ContentHash(of: data), at: coordinate, validators: validators)
        return data
    }

    /// The tiles a read would ask for, counted without a request; bytes unknown (0).
    func amount(matching filter: TileFilter, upTo limit: Int) throws -> TileAmount? {
        let narrowed = try narrowed(filter)
        let count = TileServerPlan(filter: narrowed).count(upTo: limit)
        return TileAmount(tiles: count.tiles, bytes: 0, isLowerBound: !count.complete)
    }

    /// The tiles a read would ask for (the server may lack some), without a request; no bytes.
    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        var summary = TileSetSummary()
        let narrowed = try narrowed(filter)
        for z in narrowed.zooms {
            for range in narrowed.ranges(atZoom: z) { summary.add(range, bytesEach: 0) }
        }
        return summary
    }

    /// Refuses a body that is not a tile of the declared kind: bytes no format starts with (an
    /// HTML or text error page), or JSON or an image where the server declares the other.
    func check(_ data: Data, coordinate: TileCoordinate) throws(TileStoreError) {
        let sniffed = SniffedTileFormat(sniffing: data)
        let declared = endpoint.metadata["format"].flatMap(TileFormat.init(declared:))
        let raster: Set<TileFormat> = [.png, .jpeg, .webp, .gif]
        let fits = switch declared {
        case let format? where raster.contains(format): raster.contains(sniffed.format)
        case .pbf?: sniffed.format == .pbf
        default: sniffed.format != .unknown
        }
        guard fits, sniffed.format != .unknown else {
            let start = String(decoding: data.prefix(40), as: UTF8.self).map { $0.isASCII && !$0.isNewline ? $0 : " " }
            throw TileStoreError(.invalidTile, store: location.address, item: "tile \(coordinate)",
                                 message: "the server sent \(data.count) bytes that are not a \(declared?.rawValue ?? "tile") (they start '\(String(start))')")
        }
    }
}
