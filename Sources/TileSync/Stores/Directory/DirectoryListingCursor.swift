import Foundation

/// A folder's listing: each tile file's coordinate, size and modification time from `lstat`,
/// without reading it.
final class DirectoryListingCursor: TileIndexCursor {
    private let walk: DirectoryTileWalk
    private let root: String

    init(walk: DirectoryTileWalk, root: String) {
        self.walk = walk
        self.root = root
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
        return nil
    }
}
