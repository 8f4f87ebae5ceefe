import Foundation

/// Streams the tiles of a folder: the walk's paths, each file read whole.
final class DirectoryCursor: TileCursor {
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

    func next() throws -> Tile? {
        guard let coordinate = try walk.next() else {
            if walk.isComplete { grids?.record(filter: filter, sawGrids: walk.companionsSeen > 0) }
            return nil
        }
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
