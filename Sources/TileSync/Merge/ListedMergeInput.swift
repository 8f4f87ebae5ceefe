import Foundation

/// A merge source in another order than the merge's (a tar, a folder walked otherwise): its
/// listing sorted on disk (`SortedTileIndex`), each winning tile then looked up by coordinate.
final class ListedMergeInput: MergeInput {
    private let index: any TileIndexCursor
    private let lookup: TileSource
    private var current: TileIndexEntry?
    private var needsRead = true

    init(index: any TileIndexCursor, lookup: TileSource) {
        self.index = index
        self.lookup = lookup
    }

    var skipped: SkippedItems { index.skipped }

    func head() throws -> TileIndexEntry? {
        if needsRead {
            current = nil
            current = try index.next()
            needsRead = false
        }
        return current
    }

    func headData() throws -> Data {
        guard let coordinate = current?.coordinate, let data = try lookup.tile(at: coordinate) else {
            throw TileStoreError(.corrupt, store: lookup.location.address, item: current.map { "tile \($0.coordinate)" },
                                 message: "was listed but cannot be read back (changed meanwhile?)")
        }
        return data
    }

    func take() {
        needsRead = true
    }
}
