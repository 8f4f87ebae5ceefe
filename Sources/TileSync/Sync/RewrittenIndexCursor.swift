/// The index of a `RewritingTileReader`: the source's tiles read a batch at a time, each entry
/// the size and MD5 of the bytes the destination is to hold (from the memo when the source
/// tile's bytes were rewritten before, else rewritten on every core), dropped tiles left out.
/// When the index ends, the reader is told (`listedWholeSource`), so the sync saves the memo.
final class RewrittenIndexCursor: TileIndexCursor {
    private let batches: TileBatchQueue<TileIndexEntry>
    private let reader: RewritingTileReader

    init(base: any TileCursor, reader: RewritingTileReader) {
        self.reader = reader
        batches = TileBatchQueue(base: base, batchSize: RewritingTileReader.batchTiles) { tiles in
            try reader.entries(tiles)
        }
    }

    var skipped: SkippedItems { batches.skipped }

    func next() throws -> TileIndexEntry? {
        guard let entry = try batches.next() else {
            reader.listedWholeSource = true
            return nil
        }
        return entry
    }
}
