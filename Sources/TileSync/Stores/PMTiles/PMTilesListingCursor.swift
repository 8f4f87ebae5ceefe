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
        } catch let error as TileStoreError where error.kind == .invalidTile {
            throw error
        } catch {
            ended = true
            throw PMTilesCursor.storeError(error, store: archive.store)
        }
    }
}
