/// What both folder cursors hold: the walk, the root its paths are under, and where the end of a
/// complete walk reports whether grid files were beside the tiles.
struct DirectoryCursorWalk {
    let walk: DirectoryTileWalk
    let root: String
    let grids: GridPresence?
    let filter: TileFilter

    var skipped: SkippedItems { walk.skipped }

    /// Tells `grids`, when the walk went through the whole tree, whether it saw grid files.
    func recordEnd() {
        if walk.isComplete { grids?.record(filter: filter, sawGrids: walk.companionsSeen > 0) }
    }
}
