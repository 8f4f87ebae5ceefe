/// The updaters of stores that are written anew at `finish()` (a tar, a PMTiles archive): puts
/// and removals wait in a private `PendingTileChanges` table, made by `begin`, so memory stays
/// bounded, and `finish()` merges them with the old store's tiles.
protocol PendingChangesUpdater: TileUpdater {
    var location: TileStoreLocation { get }
    /// The changes so far; nil before `begin`.
    var changes: PendingTileChanges? { get }
}

extension PendingChangesUpdater {
    func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        try pending().record(tile.coordinate, data: tile.data)
    }

    func remove(_ coordinate: TileCoordinate) throws {
        try pending().record(coordinate, data: nil)
    }

    /// The changes.
    /// - Throws: `.unsupported` before `begin`.
    func pending() throws(TileStoreError) -> PendingTileChanges {
        guard let changes else { throw TileStoreError(.unsupported, store: location.address, message: "change before begin") }
        return changes
    }
}
