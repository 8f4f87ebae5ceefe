import Foundation

/// A folder's listing: each tile file's coordinate, size and modification time from `lstat`,
/// without reading it.
final class DirectoryListingCursor: TileIndexCursor {
    private let walk: DirectoryTileWalk
    private let root: String
    private let grids: GridPresence?
    private let filter: TileFilter

    /// - Parameter grids: told, at the end of the walk, whether grid files were beside the tiles.
    init(walk: DirectoryTileWalk, root: String, grids: GridPresence? = nil, filter: TileFilter = .all) {
        self.walk = walk
        self.root = root
        self.grids = grids
        self.filter = filter
    }

    var skipped: SkippedItems { walk.skipped }

    func next() throws -> TileIndexEntry? {
        while let coordinate = try walk.next() {
            guard let stamp = walk.lastStamp else { continue }
            guard stamp.size > 0 else {
                throw TileStoreError(.invalidTile, store: root, item: "file \(walk.lastPath)", message: "empty file (0 bytes)")
            }
            return TileIndexEntry(coordinate: coordinate, size: stamp.size, hash: nil, modificationTime: stamp.modificationTime)
        }
        if walk.isComplete { grids?.record(filter: filter, sawGrids: walk.companionsSeen > 0) }
        return nil
    }
}
