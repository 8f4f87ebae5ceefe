/// Tiles in any order from a source that offers its blobs again by column
/// (`TileColumnRereading`): only records of the tiles are kept, sorted on disk
/// (`PMTilesTileCollector`), and `finish` reads each blob from the source again in the
/// archive's order (`PMTilesArchiveAssembler`), so no bytes are spooled.
final class PMTilesRereadStrategy: PMTilesWriteStrategy {
    private let collector: PMTilesTileCollector

    /// - Throws: `POSIXFileError` when the scratch files cannot be made in `folder`.
    init(folder: String, rereader: any TileColumnRereading) throws(POSIXFileError) {
        collector = try PMTilesTileCollector(folder: folder, rereader: rereader)
    }

    func accepts(_ id: UInt64) -> Bool { true }

    func add(_ tile: Tile, id: UInt64, hash: ContentHash) throws {
        try collector.add(tile, hash: hash)
    }

    func replay(_ body: (Tile, ContentHash) throws -> Void) throws {
        throw PMTilesWriteStrategyError.cannotReplay
    }

    func finish(metadata: TileMetadata, format: SniffedTileFormat, to path: String,
                isCancelled: @Sendable () -> Bool) throws -> BlobCounter.Counts {
        try PMTilesArchiveAssembler.write(collector, metadata: metadata, format: format, to: path, isCancelled: isCancelled).counts
    }
}
