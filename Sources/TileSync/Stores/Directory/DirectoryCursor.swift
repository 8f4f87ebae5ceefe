import Foundation

/// Streams the tiles of a folder: the walk's paths, each file read whole.
final class DirectoryCursor: TileCursor {
    private let state: DirectoryCursorWalk

    init(_ state: DirectoryCursorWalk) {
        self.state = state
    }

    var skipped: SkippedItems { state.skipped }

    func next() throws -> Tile? {
        guard let coordinate = try state.walk.next() else {
            state.recordEnd()
            return nil
        }
        let data: Data, modificationTime: Int64
        do {
            (data, modificationTime) = try FileBytes.read(in: state.walk.lastFolderDescriptor, name: state.walk.lastName,
                                                          path: state.root + "/" + state.walk.lastPath)
        } catch {
            throw TileStoreError(.invalidTile, store: state.root, item: "file \(state.walk.lastPath)", message: error.description)
        }
        guard !data.isEmpty else {
            throw TileStoreError(.invalidTile, store: state.root, item: "file \(state.walk.lastPath)", message: "empty file (0 bytes)")
        }
        return Tile(coordinate: coordinate, data: data, modificationTime: modificationTime)
    }
}
