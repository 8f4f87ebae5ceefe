import Foundation

/// What both folder cursors hold: the walk, the root its paths are under, and where the end of a
/// complete walk reports whether grid files were beside the tiles.
struct DirectoryCursorWalk {
    let walk: DirectoryTileWalk
    let root: String
    let grids: GridPresence?
    let filter: TileFilter

    var skipped: SkippedItems { walk.skipped }

    /// The bytes and modification time of the file the walk gave last.
    /// - Throws: `.invalidTile` naming the file when it cannot be read or is empty.
    func readLastFile() throws -> (data: Data, modificationTime: Int64) {
        let read: (data: Data, modificationTime: Int64)
        do {
            read = try FileBytes.read(in: walk.lastFolderDescriptor, name: walk.lastName, path: root + "/" + walk.lastPath)
        } catch {
            throw TileStoreError(.invalidTile, store: root, item: "file \(walk.lastPath)", message: error.description)
        }
        guard !read.data.isEmpty else {
            throw TileStoreError(.invalidTile, store: root, item: "file \(walk.lastPath)", message: "empty file (0 bytes)")
        }
        return read
    }

    /// Tells `grids`, when the walk went through the whole tree, whether it saw grid files.
    func recordEnd() {
        if walk.isComplete { grids?.record(filter: filter, sawGrids: walk.companionsSeen > 0) }
    }
}
