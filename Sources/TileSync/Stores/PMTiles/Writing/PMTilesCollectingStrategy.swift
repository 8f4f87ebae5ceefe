/// Tiles in any order: records of them sorted on disk (`PMTilesTileCollector`), and `finish`
/// lays the archive out (`PMTilesArchiveAssembler`). The blobs are spooled to a scratch file,
/// or, when the source offers them again by column (`TileColumnRereading`), read from it again
/// in the archive's order, so no bytes are spooled.
final class PMTilesCollectingStrategy: PMTilesWriteStrategy {
    private let collector: PMTilesTileCollector

    /// - Parameter rereader: the source's blobs by column; nil spools them.
    /// - Throws: `POSIXFileError` when the scratch files cannot be made in `folder`.
    init(folder: String, rereader: (any TileColumnRereading)?) throws(POSIXFileError) {
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
                isCancelled: @Sendable () -> Bool) throws -> BlobCounts {
        try PMTilesArchiveAssembler.write(collector, metadata: metadata, format: format, to: path, isCancelled: isCancelled).counts
    }
}
