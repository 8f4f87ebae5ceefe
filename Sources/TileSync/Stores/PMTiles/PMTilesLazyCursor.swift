import Foundation

/// An archive's coordinates from its directories, each tile's blob read only when asked
/// (its size is the entry's length, known without reading): a merge reads only the winners'
/// blobs. A blob shared by a run of tiles is read once.
final class PMTilesLazyCursor: LazyTileCursor {
    private let archive: PMTilesArchive
    private var walk: PMTilesTileWalk
    private var current: (coordinate: TileCoordinate, entry: PMTilesEntry)?
    private var lastBlob: (offset: UInt64, length: UInt32, data: Data)?
    private var ended = false

    init(archive: PMTilesArchive, filter: TileFilter) {
        self.archive = archive
        walk = PMTilesTileWalk(archive, filter: filter)
    }

    var skipped: SkippedItems { SkippedItems() }

    func next() throws -> TileCoordinate? {
        current = nil
        guard !ended else { return nil }
        do {
            current = try walk.next()
        } catch let error as TileStoreError where error.kind == .invalidTile {
            throw error
        } catch {
            ended = true
            throw PMTilesCursor.storeError(error, store: archive.store)
        }
        if current == nil { ended = true }
        return current?.coordinate
    }

    var knownSize: Int? { current.map { Int($0.entry.length) } }

    func data() throws -> Data {
        guard let (coordinate, entry) = current else {
            throw TileStoreError.askedPastTheEnd(of: archive.store)
        }
        if let lastBlob, lastBlob.offset == entry.offset, lastBlob.length == entry.length { return lastBlob.data }
        let data = try archive.tileData(entry, at: coordinate)
        lastBlob = (entry.offset, entry.length, data)
        return data
    }
}
