import Foundation

/// Streams an archive's tiles in tile-ID order. A blob shared by a run of tiles is read once.
/// A tile whose bytes lie outside the tile data section, or past zoom 30, is an `.invalidTile`
/// error after which the stream goes on; a damaged directory is `.corrupt` and ends it.
final class PMTilesCursor: TileCursor {
    private let archive: PMTilesArchive
    private var walk: PMTilesTileWalk
    private var lastBlob: (offset: UInt64, length: UInt32, data: Data)?
    private var ended = false

    init(archive: PMTilesArchive, filter: TileFilter) {
        self.archive = archive
        walk = PMTilesTileWalk(archive, filter: filter)
    }

    var skipped: SkippedItems { SkippedItems() }

    func next() throws -> Tile? {
        guard !ended else { return nil }
        let found: (coordinate: TileCoordinate, entry: PMTilesEntry)?
        do {
            found = try walk.next()
        } catch let error as TileStoreError where error.kind == .invalidTile {
            throw error
        } catch {
            ended = true
            throw Self.storeError(error, store: archive.store)
        }
        guard let (coordinate, entry) = found else {
            ended = true
            return nil
        }
        if let lastBlob, lastBlob.offset == entry.offset, lastBlob.length == entry.length {
            return Tile(coordinate: coordinate, data: lastBlob.data)
        }
        let data = try archive.tileData(entry, at: coordinate)
        lastBlob = (entry.offset, entry.length, data)
        return Tile(coordinate: coordinate, data: data)
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
