import Foundation

/// A pull stream of a store's coordinates in its stream order whose tiles are read only when
/// asked (`MergeStreaming.lazyTiles(matching:)`): a merge that keeps one holder of a coordinate
/// reads the winner's bytes and never the losers'.
///
/// `next()` returns nil at the end; an `.invalidTile` error for one item leaves the cursor past
/// it, as `TileCursor` does. `data()` reads the tile at the coordinate `next()` gave last.
protocol LazyTileCursor: AnyObject {
    /// The next coordinate, nil at the end.
    /// - Throws: `TileStoreError` from the store (`.invalidTile` for a coordinate out of range).
    func next() throws -> TileCoordinate?
    /// The size in bytes of the tile at the last coordinate when known without reading it.
    var knownSize: Int? { get }
    /// The bytes of the tile at the last coordinate.
    /// - Throws: `TileStoreError` (`.invalidTile` for NULL or empty bytes), or `.corrupt` when
    ///   called without a current coordinate.
    func data() throws -> Data
    /// Items passed over because they are not tiles.
    var skipped: SkippedItems { get }
}

extension TileStoreError {
    /// `.corrupt`: a `LazyTileCursor`'s `data()` called without a current coordinate.
    static func askedPastTheEnd(of store: String) -> TileStoreError {
        TileStoreError(.corrupt, store: store, message: "a tile was asked for past the end of the stream")
    }
}
