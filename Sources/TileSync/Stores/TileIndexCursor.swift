/// A pull stream of index entries; the same error contract as `TileCursor`.
public protocol TileIndexCursor: AnyObject {
    func next() throws -> TileIndexEntry?
    /// Items passed over because they are not tiles.
    var skipped: SkippedItems { get }
}

/// An index computed by reading every tile and hashing its bytes.
final class HashingIndexCursor: TileIndexCursor {
    private let tiles: any TileCursor

    init(tiles: any TileCursor) {
        self.tiles = tiles
    }

    var skipped: SkippedItems { tiles.skipped }

    func next() throws -> TileIndexEntry? {
        guard let tile = try tiles.next() else { return nil }
        return TileIndexEntry(coordinate: tile.coordinate, size: tile.data.count, hash: ContentHash(of: tile.data))
    }
}
