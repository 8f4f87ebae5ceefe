import Foundation

/// The tiles of a folder as a walk of its names, each file read only when asked: a merge opens
/// the winners' files and never the losers'.
final class DirectoryLazyCursor: LazyTileCursor {
    private let state: DirectoryCursorWalk
    private var current: TileCoordinate?

    init(_ state: DirectoryCursorWalk) {
        self.state = state
    }

    var skipped: SkippedItems { state.skipped }

    func next() throws -> TileCoordinate? {
        current = nil
        guard let coordinate = try state.walk.next() else {
            state.recordEnd()
            return nil
        }
        current = coordinate
        return coordinate
    }

    var knownSize: Int? { nil }

    func data() throws -> Data {
        guard current != nil else {
            throw TileStoreError.askedPastTheEnd(of: state.root)
        }
        return try state.readLastFile().data
    }
}
