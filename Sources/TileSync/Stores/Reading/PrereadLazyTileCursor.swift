import Foundation

/// A `TileCursor` walked as a `LazyTileCursor`: each tile is read as its coordinate comes, so its
/// size is known and `data()` costs nothing more.
final class PrereadLazyTileCursor: LazyTileCursor {
    private let tiles: any TileCursor
    private let store: String
    private var current: Tile?

    init(_ tiles: any TileCursor, store: String) {
        self.tiles = tiles
        self.store = store
    }

    func next() throws -> TileCoordinate? {
        current = nil
        current = try tiles.next()
        return current?.coordinate
    }

    var knownSize: Int? { current?.data.count }

    func data() throws -> Data {
        guard let current else {
            throw TileStoreError.askedPastTheEnd(of: store)
        }
        return current.data
    }

    var skipped: SkippedItems { tiles.skipped }
}
