import Foundation

/// Streams the UTFGrids of a folder: `.grid.json` files (JSON, or JSONP as mb-util writes them)
/// at the grid layout beside the tiles.
final class DirectoryGridCursor: UTFGridCursor {
    private let walk: DirectoryTileWalk
    private let root: String

    init(walk: DirectoryTileWalk, root: String) {
        self.walk = walk
        self.root = root
    }

    func next() throws -> UTFGrid? {
        guard let coordinate = try walk.next() else { return nil }
        let item = "file \(walk.lastPath)"
        let data: Data
        do {
            (data, _) = try FileBytes.read(in: walk.lastFolderDescriptor, name: walk.lastName, path: root + "/" + walk.lastPath)
        } catch {
            throw TileStoreError(.invalidTile, store: root, item: item, message: error.description)
        }
        do {
            return try UTFGrid(coordinate: coordinate, document: data)
        } catch {
            throw TileStoreError(.invalidTile, store: root, item: item, message: "not a UTFGrid: \(error.reason)")
        }
    }
}
