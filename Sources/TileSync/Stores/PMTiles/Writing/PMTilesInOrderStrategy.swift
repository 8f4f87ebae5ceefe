/// Tiles in ascending tile-ID order (an MBTiles with a unique index, a PMTiles) written as they
/// come, in one pass, straight into the archive file (`PMTilesInOrderWriter`).
final class PMTilesInOrderStrategy: PMTilesWriteStrategy {
    private let writer: PMTilesInOrderWriter

    /// Creates the archive file at `path` with its metadata section (gzip-compressed JSON).
    /// - Throws: `POSIXFileError`.
    init(path: String, folder: String, metadata: [UInt8], recentBlobLimit: Int) throws(POSIXFileError) {
        writer = try PMTilesInOrderWriter(path: path, folder: folder, metadata: metadata, recentBlobLimit: recentBlobLimit)
    }

    func accepts(_ id: UInt64) -> Bool { writer.follows(id) }

    func add(_ tile: Tile, id: UInt64, hash: ContentHash) throws {
        try writer.add(tile.data, id: id, hash: hash)
    }

    func replay(_ body: (Tile, ContentHash) throws -> Void) throws {
        try writer.replay(body)
        AtomicFile.remove(writer.path)
    }

    func finish(metadata: TileMetadata, format: SniffedTileFormat, to path: String,
                isCancelled: @Sendable () -> Bool) throws -> BlobCounts {
        try writer.endTileData()
        _ = try writer.finish(metadata: metadata, format: format)
        var counts = BlobCounts()
        counts.duplicateTiles = writer.runs.duplicateTiles
        counts.duplicateBytes = writer.runs.duplicateBytes
        return counts
    }
}
