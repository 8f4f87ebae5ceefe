import Foundation

/// martin's `agg_tiles_hash`: one MD5 over every tile in (zoom_level, tile_column, tile_row)
/// order with TMS rows, feeding for each the decimal text of zoom, column and row and then the
/// stored bytes, with no separators. No tiles give the MD5 of nothing. The one place the
/// formula is written; `AggregateHashCalculator` puts any store's tiles in its order.
///
/// Tiles must be added in that order; `add` reports whether the order held, so a caller that
/// cannot guarantee it can fall back to a sorted pass.
final class AggregateTileHash {
    private let hasher = MD5Hasher()
    private var last: (z: Int, x: Int, row: Int)?
    /// False once a tile arrived out of order or twice; the value is then not martin's.
    private(set) var isInOrder = true

    /// Starts an aggregate over no tiles.
    init() {}

    /// Adds one tile.
    /// - Returns: false when it broke the (zoom, column, TMS row) order.
    @discardableResult
    func add(_ coordinate: TileCoordinate, data: Data) -> Bool {
        let key = (coordinate.z, coordinate.x, coordinate.tmsY)
        if let last, !(last < key) { isInOrder = false }
        last = key
        hasher.update("\(coordinate.z)\(coordinate.x)\(coordinate.tmsY)")
        hasher.update(data)
        return isInOrder
    }

    /// Adds one MBTiles row as SQLite gives its columns as text (values that are not integers
    /// included, as martin's SQL function sees them); the caller keeps the order.
    func addRow(zoomLevel: String, tileColumn: String, tileRow: String, data: Data?) {
        hasher.update(zoomLevel + tileColumn + tileRow)
        if let data { hasher.update(data) }
    }

    /// The aggregate, as 32 uppercase hex digits through `ContentHash.hex`.
    /// - Throws: when the system's MD5 failed on the way (never with the Swift fallback).
    func finalize() throws -> ContentHash { try hasher.finalize() }
}
