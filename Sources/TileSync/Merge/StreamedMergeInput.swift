import Foundation

/// A merge source whose own tile stream already comes in the merge's order (an MBTiles with
/// its index, a PMTiles in tile-ID order): its tiles are read as they stream, no sort and no
/// lookup.
final class StreamedMergeInput: MergeInput {
    private let cursor: any TileCursor
    private let order: TileOrder
    private let store: String
    private var current: Tile?
    private var needsRead = true
    private var previous: TileCoordinate?

    init(cursor: any TileCursor, order: TileOrder, store: String) {
        self.cursor = cursor
        self.order = order
        self.store = store
    }

    var skipped: SkippedItems { cursor.skipped }

    func head() throws -> TileIndexEntry? {
        if needsRead {
            current = nil
            let tile = try cursor.next()
            needsRead = false
            if let tile {
                if let previous, !order.precedes(previous, tile.coordinate) {
                    throw TileStoreError(.corrupt, store: store, item: "tile \(tile.coordinate)",
                                         message: "comes after tile \(previous), out of the store's order")
                }
                previous = tile.coordinate
            }
            current = tile
        }
        return current.map { TileIndexEntry(coordinate: $0.coordinate, size: $0.data.count, hash: nil) }
    }

    func headData() throws -> Data {
        guard let current else {
            throw TileStoreError(.corrupt, store: store, message: "a merge asked for a tile past the end")
        }
        return current.data
    }

    func take() {
        needsRead = true
    }
}
