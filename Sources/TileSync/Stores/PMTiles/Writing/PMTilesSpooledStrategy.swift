/// Tiles in any order, their bytes spooled to a scratch file and records of them sorted on disk
/// (`PMTilesTileCollector`); `finish` lays the archive out from the spool
/// (`PMTilesArchiveAssembler`).
final class PMTilesSpooledStrategy: PMTilesWriteStrategy {
    private let collector: PMTilesTileCollector

    /// - Throws: `POSIXFileError` when the scratch files cannot be made in `folder`.
    init(folder: String) throws(POSIXFileError) {
        collector = try PMTilesTileCollector(folder: folder)
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
