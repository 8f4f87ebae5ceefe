import Foundation

/// Streams a remote archive's tiles in tile-ID order in batches: the walk gathers tiles until
/// their distinct blobs reach `batchBytes` (or `batchTiles` tiles), the blobs are merged into
/// ranges across gaps of at most `maxGapBytes` (one range for a clustered archive), and up to
/// `window` batches are in flight while the first is handed out, so the connection never
/// idles. Blobs that tiles point back to (the repeated ocean or land tile of a deduplicated
/// archive) are kept in a cache of `cacheBytes`, so they are fetched once rather than with
/// every batch. Memory: `window` batches and the cache. Errors as `PMTilesCursor`, each in its
/// tile's place.
final class PMTilesBatchCursor: TileCursor {
    /// Blob bytes of one batch at most (a larger tile is a batch of its own).
    static let batchBytes: UInt64 = 1 << 20
    /// Bytes between two blobs read through rather than asked for apart.
    static let maxGapBytes: UInt64 = 16 << 10
    /// Batches in flight at most (fewer with `--transfers` below it): 4 MiB in flight keep a
    /// link of 80 MB/s busy at 50 ms round trips.
    static let maxWindow = 4
    /// Tiles in one batch at most.
    static let batchTiles = 8192
    /// Bytes of repeated blobs kept at most, and the largest blob kept.
    static let cacheBytes = 8 << 20
    static let largestCachedBlob = 256 << 10

    private enum Item {
        case tile(TileCoordinate, blob: Int)
        case failure(TileStoreError)
    }

    /// Where a batch's blob is: in one of its ranges, or already at hand (from the cache).
    private struct BlobPlace {
        var range = 0
        var start = 0
        var length = 0
        var data: Data?
        var key: PMTilesBlobKey
        /// A blob before bytes already fetched: kept in the cache once it arrives.
        var isRepeat = false
    }

    private struct Batch {
        var items: [Item] = []
        var blobs: [BlobPlace] = []
        var read: PMTilesPendingRead?
        var parts: [Data] = []
    }

    private let archive: PMTilesArchive
    private let wanted: ((TileCoordinate) throws -> Bool)?
    private var walk: PMTilesTileWalk
    private var walkEnded = false
    private var current = Batch()
    private var position = 0
    private var pending: [Batch] = []
    private var pendingStart = 0
    private let window: Int
    /// The end of the furthest blob asked for: blobs before it are repeats.
    private var fetchedEnd: UInt64 = 0
    private var cache: [PMTilesBlobKey: Data] = [:]
    private var cacheOrder: [PMTilesBlobKey] = []
    private var cacheOrderStart = 0
    private var cachedBytes = 0

    /// - Parameter wanted: the coordinates to stream (nil: all); the others' blobs are not fetched.
    init(archive: PMTilesArchive, filter: TileFilter, wanted: ((TileCoordinate) throws -> Bool)? = nil) {
        self.archive = archive
        self.wanted = wanted
        walk = PMTilesTileWalk(archive, filter: filter)
        window = max(1, min(Self.maxWindow, (archive.source as? PMTilesRemoteFile)?.fetcher.transfers ?? Self.maxWindow))
    }

    var skipped: SkippedItems { SkippedItems() }

    func next() throws -> Tile? {
        while position >= current.items.count {
            while pending.count - pendingStart < window, let batch = startBatch() { pending.append(batch) }
            guard pendingStart < pending.count else { return nil }
            var batch = pending[pendingStart]
            pending[pendingStart] = Batch()
            pendingStart += 1
            if pendingStart > 64 {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            do throws(TileStoreError) {
                batch.parts = try batch.read?.wait() ?? []
            } catch {
                walkEnded = true
                pending.removeAll()
                pendingStart = 0
                throw error
            }
            for index in batch.blobs.indices where batch.blobs[index].data == nil {
                let place = batch.blobs[index]
                let part = batch.parts[place.range]
                let start = part.startIndex + place.start
                let data = part.subdata(in: start..<(start + place.length))
                batch.blobs[index].data = data
                if place.isRepeat { remember(data, as: place.key) }
            }
            batch.parts = []
            current = batch
            position = 0
        }
        let item = current.items[position]
        position += 1
        switch item {
        case .failure(let error):
            throw error
        case .tile(let coordinate, let blobIndex):
            return Tile(coordinate: coordinate, data: current.blobs[blobIndex].data ?? Data())
        }
    }

    /// Walks up to `batchTiles` tiles and starts fetching their blobs; nil when the walk is over.
    private func startBatch() -> Batch? {
        guard !walkEnded else { return nil }
        var batch = Batch()
        var blobIndex: [PMTilesBlobKey: Int] = [:]
        var bytes: UInt64 = 0
        while batch.items.count < Self.batchTiles, bytes < Self.batchBytes {
            do {
                guard let (coordinate, entry) = try walk.next() else {
                    walkEnded = true
                    break
                }
                if let wanted, try !wanted(coordinate) { continue }
                let key = PMTilesBlobKey(offset: entry.offset, length: entry.length)
                if let index = blobIndex[key] {
                    batch.items.append(.tile(coordinate, blob: index))
                    continue
                }
                do {
                    try archive.checkBlob(entry, part: "tile \(coordinate) (tile ID \(TileID.id(of: coordinate)))")
                } catch {
                    batch.items.append(.failure(TileStoreError(.invalidTile, store: archive.store, item: error.part, message: error.message)))
                    continue
                }
                var place = BlobPlace(length: Int(entry.length), data: cache[key], key: key)
                if place.data == nil {
                    place.isRepeat = entry.offset < fetchedEnd
                    bytes += UInt64(entry.length)
                }
                blobIndex[key] = batch.blobs.count
                batch.items.append(.tile(coordinate, blob: batch.blobs.count))
                batch.blobs.append(place)
            } catch let error as TileStoreError where error.kind == .invalidTile {
                batch.items.append(.failure(error))
            } catch {
                batch.items.append(.failure(PMTilesCursor.storeError(error, store: archive.store)))
                walkEnded = true
                break
            }
        }
        guard !batch.items.isEmpty else { return nil }
        startFetching(&batch)
        return batch
    }

    /// Merges the batch's blobs that are not cached into ranges (across gaps of up to
    /// `maxGapBytes`) and starts reading them.
    private func startFetching(_ batch: inout Batch) {
        let order = batch.blobs.indices.filter { batch.blobs[$0].data == nil }.sorted { batch.blobs[$0].key.offset < batch.blobs[$1].key.offset }
        var ranges: [Range<UInt64>] = []
        let maxRangeBytes = Self.batchBytes + Self.maxGapBytes
        for index in order {
            let key = batch.blobs[index].key
            let end = key.offset + UInt64(key.length)
            if let last = ranges.last, key.offset <= last.upperBound + Self.maxGapBytes,
               max(end, last.upperBound) - last.lowerBound <= maxRangeBytes {
                ranges[ranges.count - 1] = last.lowerBound..<max(end, last.upperBound)
            } else {
                ranges.append(key.offset..<end)
            }
            batch.blobs[index].range = ranges.count - 1
            batch.blobs[index].start = Int(key.offset - ranges[ranges.count - 1].lowerBound)
            fetchedEnd = max(fetchedEnd, end)
        }
        if !ranges.isEmpty {
            let base = archive.header.tileDataOffset
            batch.read = archive.source.read(ranges.map { (base + $0.lowerBound)..<(base + $0.upperBound) })
        }
    }

    private func remember(_ data: Data, as key: PMTilesBlobKey) {
        guard data.count <= Self.largestCachedBlob, cache[key] == nil else { return }
        while cachedBytes + data.count > Self.cacheBytes, cacheOrderStart < cacheOrder.count {
            cachedBytes -= cache.removeValue(forKey: cacheOrder[cacheOrderStart])?.count ?? 0
            cacheOrderStart += 1
        }
        if cacheOrderStart > 4096 {
            cacheOrder.removeFirst(cacheOrderStart)
            cacheOrderStart = 0
        }
        cache[key] = data
        cacheOrder.append(key)
        cachedBytes += data.count
    }
}
