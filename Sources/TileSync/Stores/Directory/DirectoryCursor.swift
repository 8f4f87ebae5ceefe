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
        let (data, modificationTime) = try state.readLastFile()
        return Tile(coordinate: coordinate, data: data, modificationTime: modificationTime)
    }
}
