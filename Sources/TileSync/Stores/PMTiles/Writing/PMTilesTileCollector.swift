import Foundation

/// Gathers the tiles of a PMTiles being written, in any order and in bounded memory: each
/// tile's bytes go to a scratch file as they come (unless the source can be read again:
/// `rereader`), and a record of it (tile ID, MD5, where its bytes are) to an on-disk sort.
/// `placements()` then groups the records by MD5 (one blob number per distinct content) and
/// sorts them by tile ID, ready to be laid out.
final class PMTilesTileCollector {
    /// What is known of one tile as it arrives.
    struct Arrival {
        var hashHigh: UInt64
        var hashLow: UInt64
        var arrival: UInt64
        var tileID: UInt64
        var blobOffset: UInt64
        var length: UInt32
    }

    /// One tile with the number of its distinct content, for the layout pass.
    struct Placement {
        var tileID: UInt64
        var arrival: UInt64
        var blob: UInt64
        var blobOffset: UInt64
        var length: UInt32
    }

    /// Bytes of records each sort holds in memory.
    static let sortBudget = 8 << 20
    /// Distinct MD5s remembered with their bytes' place, so a blob seen lately (ocean, empty
    /// tiles) is not spooled again; emptied when full. Only saves writes: the sort finds every repeat.
    static let recentBlobLimit = 1 << 16

    /// Where the layout finds the bytes of each distinct blob.
    enum BlobBytes {
        /// In a scratch file, appended as the tiles came (`Arrival.blobOffset`).
        case spooled(ScratchSpool)
        /// In the source, read again by coordinate.
        case reread(any TileColumnRereading)
    }

    let folder: String
    let blobBytes: BlobBytes
    private let arrivals: ExternalSorter<Arrival>
    private var recentBlobs: [ContentHash: UInt64] = [:]
    private(set) var tileCount = 0

    /// - Throws: `POSIXFileError` when the scratch file cannot be created in `folder`.
    init(folder: String, rereader: (any TileColumnRereading)? = nil) throws(POSIXFileError) {
        self.folder = folder
        if let rereader {
            blobBytes = .reread(rereader)
        } else {
            blobBytes = .spooled(try ScratchSpool(in: folder, purpose: "pmtiles-blobs"))
        }
        arrivals = ExternalSorter(folder: folder, purpose: "pmtiles-sort", memoryBudget: Self.sortBudget) { a, b in
            (a.hashHigh, a.hashLow, a.arrival) < (b.hashHigh, b.hashLow, b.arrival)
        }
    }

    /// Records a tile and keeps its bytes.
    /// - Throws: `POSIXFileError` (disk full, I/O error).
    func add(_ tile: Tile, hash: ContentHash) throws(POSIXFileError) {
        let id = TileID.id(of: tile.coordinate)
        var offset: UInt64 = 0
        if case .spooled(let blobs) = blobBytes {
            if let known = recentBlobs[hash] {
                offset = known
            } else {
                offset = blobs.count
                try blobs.append(tile.data)
                if recentBlobs.count == Self.recentBlobLimit { recentBlobs.removeAll(keepingCapacity: true) }
                recentBlobs[hash] = offset
            }
        }
        try arrivals.append(Arrival(hashHigh: hash.high, hashLow: hash.low, arrival: UInt64(tileCount), tileID: id,
                                    blobOffset: offset, length: UInt32(tile.data.count)))
        tileCount += 1
    }

    /// Every tile in tile-ID order (a repeated tile ID in arrival order), each with the number
    /// of its content: equal MD5s share a number and the bytes of the first tile that had them.
    /// - Throws: `POSIXFileError`.
    func placements() throws(POSIXFileError) -> SortedRecords<Placement> {
        let placed = ExternalSorter<Placement>(folder: folder, purpose: "pmtiles-sort", memoryBudget: Self.sortBudget) { a, b in
            (a.tileID, a.arrival) < (b.tileID, b.arrival)
        }
        var grouped: SortedRecords<Arrival>? = try arrivals.sorted()
        var blob: UInt64 = 0
        var current: Arrival?
        while let arrival = try grouped?.next() {
            if let first = current, first.hashHigh == arrival.hashHigh && first.hashLow == arrival.hashLow {
                try placed.append(Placement(tileID: arrival.tileID, arrival: arrival.arrival, blob: blob - 1,
                                            blobOffset: first.blobOffset, length: first.length))
            } else {
                current = arrival
                try placed.append(Placement(tileID: arrival.tileID, arrival: arrival.arrival, blob: blob,
                                            blobOffset: arrival.blobOffset, length: arrival.length))
                blob += 1
            }
        }
        grouped = nil
        return try placed.sorted()
    }
}
