/// The strategy of a `PMTilesWriter` that joins whole archives (`PMTilesJoin`) instead of
/// taking tiles: it takes none, and writes the joined archive at `finish`.
final class PMTilesJoinStrategy: PMTilesWriteStrategy {
    private let join: PMTilesJoin
    private let metadata: TileMetadata
    private let folder: String

    init(join: PMTilesJoin, metadata: TileMetadata, folder: String) {
        self.join = join
        self.metadata = metadata
        self.folder = folder
    }

    func accepts(_ id: UInt64) -> Bool { false }

    func add(_ tile: Tile, id: UInt64, hash: ContentHash) throws {
        throw PMTilesWriteStrategyError.tileAfterJoin
    }

    func replay(_ body: (Tile, ContentHash) throws -> Void) throws {}

    func finish(metadata: TileMetadata, format: SniffedTileFormat, to path: String,
                isCancelled: @Sendable () -> Bool) throws -> BlobCounts {
        let written = try join.write(metadata: self.metadata, to: path, folder: folder, isCancelled: isCancelled)
        var counts = BlobCounts()
        if written.contents > 0 {
            counts.duplicateTiles = Int(written.tiles - min(written.tiles, written.contents))
            counts.duplicateBytes = Int(join.tileBytes - min(join.tileBytes, join.dataLength))
        }
        return counts
    }
}
