import Foundation

/// Streams an archive's tiles in tile-ID order (its `PMTilesLazyCursor`, each blob read as its
/// coordinate comes). A blob shared by a run of tiles is read once.
/// A tile whose bytes lie outside the tile data section, or past zoom 30, is an `.invalidTile`
/// error after which the stream goes on; a damaged directory is `.corrupt` and ends it.
final class PMTilesCursor: TileCursor {
    private let tiles: PMTilesLazyCursor

    init(archive: PMTilesArchive, filter: TileFilter) {
        tiles = PMTilesLazyCursor(archive: archive, filter: filter)
    }

    var skipped: SkippedItems { SkippedItems() }

    func next() throws -> Tile? {
        guard let coordinate = try tiles.next() else { return nil }
        return Tile(coordinate: coordinate, data: try tiles.data())
    }

    static func storeError(_ error: any Error, store: String) -> TileStoreError {
        switch error {
        case let error as PMTilesFormatError: error.storeError(store: store)
        case let error as POSIXFileError: error.storeError(store: store)
        case let error as TileStoreError: error
        default: TileStoreError(wrapping: error, store: store)
        }
    }
}
