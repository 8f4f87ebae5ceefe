import Foundation

/// A source seen with its vector tiles re-encoded (`TileRecompressor`), so that a sync compares
/// and writes the bytes the destination is to hold: its index hashes recompressed tiles (it
/// keeps no listing that knows content), its metadata says the new `compression`. Raster tiles
/// pass as they are. Everything else is the source's.
final class RecompressingTileReader: TileReader {
    private let source: any TileReader
    private let recompressor: TileRecompressor

    /// - Throws: `TileStoreError` when the source's declared compression cannot be read.
    init(_ source: any TileReader, target: TileCompression) throws {
        self.source = source
        recompressor = TileRecompressor(target: target, declared: try source.declaredTileCompression(), store: source.location.address)
    }

    var location: TileStoreLocation { source.location }
    var schemaDescription: String { source.schemaDescription }
    var order: TileOrder { source.order }
    var hasCheapRandomAccess: Bool { source.hasCheapRandomAccess }
    var listingKnowsContent: Bool { false }
    var isRemote: Bool { source.isRemote }
    var hasCheapSummary: Bool { source.hasCheapSummary }

    func metadata() throws -> TileMetadata {
        var metadata = try source.metadata()
        metadata["compression"] = recompressor.target == .zlib ? TileCompression.gzip.rawValue : recompressor.target.rawValue
        return metadata
    }

    func declaredTileCompression() throws -> TileCompression? { recompressor.target }

    func tiles(matching filter: TileFilter) throws -> any TileCursor {
        Cursor(base: try source.tiles(matching: filter), recompressor: recompressor)
    }

    func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor {
        Cursor(base: try source.tiles(matching: filter, preferring: preferred), recompressor: recompressor)
    }

    func tile(at coordinate: TileCoordinate) throws -> Data? {
        guard let data = try source.tile(at: coordinate) else { return nil }
        return try recompressor.recompress(Tile(coordinate: coordinate, data: data))?.data ?? data
    }

    func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        try index(matching: filter)
    }

    func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool) { source.setCancellation(isCancelled) }

    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        try source.summary(matching: filter, countingBytes: countingBytes)
    }

    func amount(matching filter: TileFilter, upTo limit: Int) throws -> TileAmount? {
        try source.amount(matching: filter, upTo: limit).map { TileAmount(tiles: $0.tiles, bytes: $0.bytes, isLowerBound: $0.isLowerBound) }
    }

    func layoutHint(forSkipped skipped: SkippedItems) -> String? { source.layoutHint(forSkipped: skipped) }
    var notes: [String] { source.notes }
    func grids(matching filter: TileFilter) throws -> (any UTFGridCursor)? { try source.grids(matching: filter) }

    func uncarriedContent() throws -> [UncarriedContent] { try source.uncarriedContent() }

    func withConsistentReads<T>(_ body: () throws -> T) throws -> T { try source.withConsistentReads(body) }

    /// The source's tiles, each re-encoded as it is read.
    private final class Cursor: TileCursor {
        private let base: any TileCursor
        private let recompressor: TileRecompressor

        init(base: any TileCursor, recompressor: TileRecompressor) {
            self.base = base
            self.recompressor = recompressor
        }

        var skipped: SkippedItems { base.skipped }

        func next() throws -> Tile? {
            guard let tile = try base.next() else { return nil }
            return try recompressor.recompress(tile) ?? tile
        }
    }
}
