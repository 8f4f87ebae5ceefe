/// The index of a tile server read: each tile's size and MD5, from the download state where it
/// settles them (no request), else from the tile fetched and hashed.
final class TileServerIndexCursor: TileIndexCursor {
    private let tiles: TileServerCursor

    init(tiles: TileServerCursor) {
        self.tiles = tiles
    }

    var skipped: SkippedItems { tiles.skipped }

    func next() throws -> TileIndexEntry? {
        switch try tiles.nextItem() {
        case .known(let entry)?: return entry
        case .fetched(let tile, let hash)?:
            return TileIndexEntry(coordinate: tile.coordinate, size: tile.data.count, hash: hash ?? ContentHash(of: tile.data))
        case nil: return nil
        }
    }
}
