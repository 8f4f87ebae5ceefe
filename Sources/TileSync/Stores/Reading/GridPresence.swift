import Synchronization

/// What a reader's last complete pass over its tiles saw of UTFGrid files beside them, so that a
/// tree or tar without grids is not walked or read a second time to look for them.
final class GridPresence: Sendable {
    private let seen = Mutex<(filter: TileFilter, sawGrids: Bool)?>(nil)

    /// Records a pass over every entry within `filter` that did (or did not) meet a grid.
    func record(filter: TileFilter, sawGrids: Bool) {
        seen.withLock { $0 = (filter, sawGrids) }
    }

    /// True when a complete pass within `filter` met no grid.
    func isKnownAbsent(within filter: TileFilter) -> Bool {
        seen.withLock { $0.map { $0.filter == filter && !$0.sawGrids } ?? false }
    }
}
