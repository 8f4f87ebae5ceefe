/// An archive's tiles as (coordinate, size) without reading them, in tile-ID order: the
/// directories alone answer. Hashes are left out (the archive keeps none).
final class PMTilesListingCursor: TileIndexCursor {
    private let archive: PMTilesArchive
    private var walk: PMTilesTileWalk
    private var ended = false

    init(archive: PMTilesArchive, filter: TileFilter) {
        self.archive = archive
        walk = PMTilesTileWalk(archive, filter: filter)
    }

    var skipped: SkippedItems { SkippedItems() }

    func next() throws -> TileIndexEntry? {
        guard !ended else { return nil }
        do {
            guard let (coordinate, entry) = try walk.next() else {
                ended = true
                return nil
            }
            return TileIndexEntry(coordinate: coordinate, size: Int(entry.length), hash: nil)
        } catch let error as PMTilesFormatError where error.part.hasPrefix("tile ") {
            throw TileStoreError(.invalidTile, store: archive.store, item: error.part, message: error.message)
        } catch {
            ended = true
            throw PMTilesCursor.storeError(error, store: archive.store)
        }
    }
}
