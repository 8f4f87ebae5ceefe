/// An archive's tiles as (coordinate, size) without reading them, in tile-ID order: the
/// directories alone answer (the walk of `PMTilesLazyCursor`, no blob asked for). Hashes are
/// left out (the archive keeps none).
final class PMTilesListingCursor: TileIndexCursor {
    private let tiles: PMTilesLazyCursor

    init(archive: PMTilesArchive, filter: TileFilter) {
        tiles = PMTilesLazyCursor(archive: archive, filter: filter)
    }

    var skipped: SkippedItems { tiles.skipped }

    func next() throws -> TileIndexEntry? {
        guard let coordinate = try tiles.next() else { return nil }
        return TileIndexEntry(coordinate: coordinate, size: tiles.knownSize ?? 0, hash: nil)
    }
}
