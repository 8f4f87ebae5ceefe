/// The tiles of a `RewritingTileReader`'s source as they are to be written, read and rewritten
/// a batch at a time (dropped tiles left out). With `wanted`, only the coordinates it accepts
/// are rewritten and given (a sync's streaming write pass, which needs only the planned ones).
final class RewrittenTileCursor: TileCursor {
    private let batches: TileBatchQueue<Tile>

    init(base: any TileCursor, reader: RewritingTileReader, wanted: ((TileCoordinate) throws -> Bool)?) {
        batches = TileBatchQueue(base: base, batchSize: RewritingTileReader.batchTiles, accepts: wanted) { tiles in
            try reader.rewritten(tiles)
        }
    }

    var skipped: SkippedItems { batches.skipped }

    func next() throws -> Tile? { try batches.next() }
}
