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
    /// True when the cursor counts and skips coordinates without listing them
    /// (`countAhead`, `skipAhead`) and knows no tile's size before reading it.
    var countsAhead: Bool { get }
    /// How many coordinates `next()` would give after the one it gave last, through `last`,
    /// counted without listing them; nil when the cursor cannot count them exactly so (a merge
    /// then lists them).
    /// - Throws: `TileStoreError` from the store.
    func countAhead(through last: TileCoordinate) throws -> Int?
    /// Moves on so that `next()` gives the first coordinate after `last`, without listing those
    /// between; false (nothing moved) when the cursor cannot.
    /// - Throws: `TileStoreError` from the store.
    func skipAhead(past last: TileCoordinate) throws -> Bool
}

extension LazyTileCursor {
    var countsAhead: Bool { false }

    func countAhead(through last: TileCoordinate) throws -> Int? { nil }

    func skipAhead(past last: TileCoordinate) throws -> Bool { false }
}

extension TileStoreError {
    /// `.corrupt`: a `LazyTileCursor`'s `data()` called without a current coordinate.
    static func askedPastTheEnd(of store: String) -> TileStoreError {
        TileStoreError(.corrupt, store: store, message: "a tile was asked for past the end of the stream")
    }
}
