/// An index with nothing in it (a destination that does not exist yet).
final class EmptyIndexCursor: TileIndexCursor {
    let skipped = SkippedItems()
    func next() throws -> TileIndexEntry? { nil }
}
