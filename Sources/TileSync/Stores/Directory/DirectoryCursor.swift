import Foundation

/// Streams the tiles of a folder: the walk's paths, each file read whole.
final class DirectoryCursor: TileCursor {
    private let walk: DirectoryTileWalk
    private let root: String

    init(walk: DirectoryTileWalk, root: String) {
        self.walk = walk
        self.root = root
    }

    var skipped: SkippedItems { walk.skipped }

    func next() throws -> Tile? {
        guard let coordinate = try walk.next() else { return nil }
        let data: Data, modificationTime: Int64
        do {
            (data, modificationTime) = try FileBytes.read(in: walk.lastFolderDescriptor, name: walk.lastName,
                                                          path: root + "/" + walk.lastPath)
        } catch {
            throw TileStoreError(.invalidTile, store: root, item: "file \(walk.lastPath)", message: error.description)
        }
        guard !data.isEmpty else {
            throw TileStoreError(.invalidTile, store: root, item: "file \(walk.lastPath)", message: "empty file (0 bytes)")
        }
        return Tile(coordinate: coordinate, data: data, modificationTime: modificationTime)
    }
}
