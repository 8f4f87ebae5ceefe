import Foundation

/// Streams an archive's tiles in zoom, column, row order (XYZ or TMS rows) for writers that
/// want it (a folder makes each column once, an MBTiles appends to its index): the directories
/// are walked once into an on-disk sort of (order key, blob), then each blob is read by offset
/// (a blob shared by neighbours once). Errors as `PMTilesCursor`; tiles past zoom 30 are
/// reported (the first 1,000) before the others.
final class PMTilesRowOrderCursor: TileCursor {
    private struct Record {
        var key: Int64
        var offset: UInt64
        var length: UInt32
        var z: UInt8
        var x: UInt32
        var y: UInt32
    }

    private let archive: PMTilesArchive
    private let sorted: SortedRecords<Record>
    private var lastBlob: (offset: UInt64, length: UInt32, data: Data)?
    /// Tiles the walk could not take (past zoom 30), reported first, one per call; at most 1,000.
    private var invalid: [TileStoreError] = []

    /// - Throws: `TileStoreError` for a damaged directory (`.corrupt`) or a failed scratch file (`.io`).
    init(archive: PMTilesArchive, filter: TileFilter, order: TileOrder) throws {
        self.archive = archive
        let sorter = ExternalSorter<Record>(folder: NSTemporaryDirectory(), purpose: "pmtiles-order",
                                            memoryBudget: PMTilesTileCollector.sortBudget) { $0.key < $1.key }
        var walk = PMTilesTileWalk(archive, filter: filter)
        do {
            var spooled = 0
            while true {
                spooled += 1
                if spooled % 65_536 == 0, archive.isCancelled() {
                    throw TileStoreError(.interrupted, store: archive.store, message: "interrupted")
                }
                do {
                    guard let (coordinate, entry) = try walk.next() else { break }
                    try sorter.append(Record(key: Int64(order.sortKey(coordinate)), offset: entry.offset, length: entry.length,
                                             z: UInt8(coordinate.z), x: UInt32(coordinate.x), y: UInt32(coordinate.y)))
                } catch let error as TileStoreError where error.kind == .invalidTile {
                    if invalid.count < 1000 { invalid.append(error) }
                }
            }
            sorted = try sorter.sorted()
        } catch {
            throw PMTilesCursor.storeError(error, store: archive.store)
        }
    }

    var skipped: SkippedItems { SkippedItems() }

    func next() throws -> Tile? {
        if !invalid.isEmpty { throw invalid.removeFirst() }
        let record: Record?
        do {
            record = try sorted.next()
        } catch {
            throw PMTilesCursor.storeError(error, store: archive.store)
        }
        guard let record else { return nil }
        let coordinate = TileCoordinate(unchecked: Int(record.z), Int(record.x), Int(record.y))
        if let lastBlob, lastBlob.offset == record.offset, lastBlob.length == record.length {
            return Tile(coordinate: coordinate, data: lastBlob.data)
        }
        let entry = PMTilesEntry(tileID: 0, offset: record.offset, length: record.length, runLength: 1)
        let data = try archive.tileData(entry, at: coordinate)
        lastBlob = (record.offset, record.length, data)
        return Tile(coordinate: coordinate, data: data)
    }
}
