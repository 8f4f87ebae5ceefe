import Foundation

/// martin's `agg_tiles_hash`: one MD5 over every tile in (zoom_level, tile_column, tile_row)
/// order with TMS rows, feeding for each the decimal text of zoom, column and row and then the
/// stored bytes, with no separators. No tiles give the MD5 of nothing. The one place the
/// formula is written; `AggregateHashCalculator` puts any store's tiles in its order.
///
/// Tiles must be added in that order; `add` reports whether the order held, so a caller that
/// cannot guarantee it can fall back to a sorted pass.
final class AggregateTileHash {
    private let hasher: MD5Hasher?
    private let backgroundHasher: BackgroundMD5Hasher?
    private var last: (z: Int, x: Int, row: Int)?
    /// False once a tile arrived out of order or twice; the value is then not martin's.
    private(set) var isInOrder = true

    /// Starts an aggregate over no tiles.
    /// - Parameter inBackground: hash on a thread of its own (`BackgroundMD5Hasher`), for a
    ///   caller whose reading is as costly as the hashing.
    init(inBackground: Bool = false) {
        hasher = inBackground ? nil : MD5Hasher()
        backgroundHasher = inBackground ? BackgroundMD5Hasher() : nil
    }

    /// Adds one tile.
    /// - Returns: false when it broke the (zoom, column, TMS row) order.
    @discardableResult
    func add(_ coordinate: TileCoordinate, data: Data) -> Bool {
        let key = (coordinate.z, coordinate.x, coordinate.tmsY)
        if let last, !(last < key) { isInOrder = false }
        last = key
        var text = "\(coordinate.z)\(coordinate.x)\(coordinate.tmsY)"
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
        data.withUnsafeBytes { update($0) }
        return isInOrder
    }

    /// Adds one MBTiles row as SQLite gives its columns as text (values that are not integers
    /// included, as martin's SQL function sees them; NULL as nothing); the caller keeps the order.
    func addRow(zoomLevel: UnsafeRawBufferPointer, tileColumn: UnsafeRawBufferPointer, tileRow: UnsafeRawBufferPointer,
                data: UnsafeRawBufferPointer) {
        update(zoomLevel)
        update(tileColumn)
        update(tileRow)
        update(data)
    }

    private func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        if let hasher { hasher.update(bytes) } else { backgroundHasher?.update(bytes) }
    }

    /// The aggregate, as 32 uppercase hex digits through `ContentHash.hex`.
    /// - Throws: when the system's MD5 failed on the way (never with the Swift fallback).
    func finalize() throws -> ContentHash {
        if let hasher { return try hasher.finalize() }
        guard let backgroundHasher else { throw DigestError(operation: "an aggregate without a hasher") }
        return try backgroundHasher.finalize()
    }
}
