/// One way `PMTilesWriter` lays an archive out from the tiles it is given. The writer starts
/// with `PMTilesInOrderStrategy` and, at the first tile out of tile-ID order, hands the tiles so
/// far to `PMTilesCollectingStrategy` (blobs spooled, or reread when the source offers them),
/// which then takes the rest.
protocol PMTilesWriteStrategy: AnyObject {
    /// True when the strategy can take the tile with this tile ID next.
    func accepts(_ id: UInt64) -> Bool

    /// Takes one tile (its tile ID and the MD5 of its bytes).
    /// - Throws: `POSIXFileError` (disk full, permissions).
    func add(_ tile: Tile, id: UInt64, hash: ContentHash) throws

    /// Every tile taken so far, with its MD5, for the strategy that goes on instead; this one is
    /// done afterwards.
    /// - Throws: `POSIXFileError`, or what `body` throws.
    func replay(_ body: (Tile, ContentHash) throws -> Void) throws

    /// Writes the whole archive to `path`.
    /// - Returns: what was stored once for tiles that repeat a blob.
    /// - Throws: `POSIXFileError`, `CompressionError`, `CancellationError` once `isCancelled`.
    func finish(metadata: TileMetadata, format: SniffedTileFormat, to path: String,
                isCancelled: @Sendable () -> Bool) throws -> BlobCounts
}
