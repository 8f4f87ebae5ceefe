import Foundation

/// A folder's listing: each tile file's coordinate, size and modification time from `lstat`,
/// without reading it.
final class DirectoryListingCursor: TileIndexCursor {
    private let state: DirectoryCursorWalk

    init(_ state: DirectoryCursorWalk) {
        self.state = state
    }

    var skipped: SkippedItems { state.skipped }

    func next() throws -> TileIndexEntry? {
        while let coordinate = try state.walk.next() {
            guard let stamp = state.walk.lastStamp else { continue }
            guard stamp.size > 0 else {
                throw TileStoreError(.invalidTile, store: state.root, item: "file \(state.walk.lastPath)", message: "empty file (0 bytes)")
            }
            return TileIndexEntry(coordinate: coordinate, size: stamp.size, hash: nil, modificationTime: stamp.modificationTime)
        }
        state.recordEnd()
        return nil
    }
}
