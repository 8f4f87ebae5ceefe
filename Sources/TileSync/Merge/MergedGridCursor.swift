import Foundation

/// The UTFGrids of a merge, by the tiles' rule: a grid comes from the source whose tile won its
/// coordinate; where no source holds a tile, from the source the policy prefers among those with
/// a grid there (the first, or the last under `override`). The sources' grids are read one
/// source after another, in the policy's order of preference.
final class MergedGridCursor: UTFGridCursor {
    private let sources: MergedSources
    private let filter: TileFilter
    /// Source positions, the preferred first.
    private let preference: [Int]
    private var current: (position: Int, cursor: any UTFGridCursor)?
    private var nextPosition = 0
    /// Coordinates without a tile whose grid was given already (grids without tiles are few).
    private var givenWithoutTile = Set<TileCoordinate>()

    init(sources: MergedSources, filter: TileFilter) {
        self.sources = sources
        self.filter = filter
        let positions = Array(sources.locations.indices)
        preference = sources.policy == .override ? positions.reversed() : positions
    }

    func next() throws -> UTFGrid? {
        while true {
            guard let (position, cursor) = try currentCursor() else { return nil }
            guard let grid = try cursor.next() else {
                current = nil
                continue
            }
            if try belongs(grid.coordinate, to: position) { return grid }
        }
    }

    private func currentCursor() throws -> (Int, any UTFGridCursor)? {
        while current == nil, nextPosition < preference.count {
            let position = preference[nextPosition]
            nextPosition += 1
            if let cursor = try sources.lookups[position].openLookupReader().grids(matching: filter) {
                current = (position, cursor)
            }
        }
        return current
    }

    private func belongs(_ coordinate: TileCoordinate, to position: Int) throws -> Bool {
        if let winner = try sources.winner(at: coordinate) { return winner.source == position }
        return givenWithoutTile.insert(coordinate).inserted
    }
}
