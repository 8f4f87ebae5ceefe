/// The tile entries of an archive in tile-ID order, depth first through the leaves, limited to
/// a range of tile IDs (leaves wholly outside it are not read; each directory is entered by
/// binary search at the range's start). Checks what makes the walk
/// safe on hostile files: each entry starts at or after the end of the one before, stays below
/// its parent's next entry and ends by the header's max zoom, leaves nest at most
/// `PMTilesArchive.maxDepth` deep and are entered once each, and the runs and entries never pass
/// the header's `addressed_tiles_count` and `tile_entries_count` (where it gives them), which a
/// walk of the whole archive must meet exactly.
struct PMTilesEntryWalk {
    private struct Level {
        let entries: [PMTilesEntry]
        var index: Int
        /// Entries here must end at or below this tile ID (the parent's next entry).
        let upper: UInt64
        let part: String
    }

    private let archive: PMTilesArchive
    private let lowerID: UInt64
    private let upperID: UInt64
    private var levels: [Level]
    private let caching: Bool
    private var lastEnd: UInt64 = 0
    /// One past the last tile ID of the header's max zoom.
    private let zoomEnd: UInt64
    private var leavesEntered = Set<UInt64>()
    private var addressed: UInt64 = 0
    private var entryCount: UInt64 = 0

    /// Walks the entries that hold IDs in `lowerID..<upperID`.
    /// - Parameter caching: keep the leaves read in the archive's cache (walks of many ranges).
    init(_ archive: PMTilesArchive, ids: Range<UInt64> = 0..<TileID.end, caching: Bool = false) {
        self.archive = archive
        self.caching = caching
        lowerID = ids.lowerBound
        upperID = ids.upperBound
        zoomEnd = TileID.firstID(ofZoom: Int(archive.header.maxZoom) + 1)
        levels = [Level(entries: archive.root, index: Self.start(in: archive.root, at: ids.lowerBound), upper: TileID.end,
                        part: "root directory")]
    }

    /// The index of the last entry at or before `id` (0 when none is).
    private static func start(in entries: [PMTilesEntry], at id: UInt64) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    /// The next tile entry, nil after the last.
    /// - Throws: `PMTilesFormatError` for a damaged directory, `POSIXFileError`.
    mutating func next() throws -> PMTilesEntry? {
        while let top = levels.last {
            guard top.index < top.entries.count else {
                levels.removeLast()
                if levels.isEmpty { try checkTotals() }
                continue
            }
            let entry = top.entries[top.index]
            levels[levels.count - 1].index += 1
            let nextID = top.index + 1 < top.entries.count ? top.entries[top.index + 1].tileID : top.upper
            if entry.tileID < lastEnd {
                throw PMTilesFormatError(top.part, "an entry for tile ID \(entry.tileID) comes after tile ID \(lastEnd - 1): entries out of order")
            }
            if entry.endID > top.upper {
                throw PMTilesFormatError(top.part, "the run from tile ID \(entry.tileID) passes its parent's next entry (tile ID \(top.upper))")
            }
            if entry.isLeaf {
                guard entry.tileID < upperID, nextID > lowerID else { continue }
                guard levels.count <= PMTilesArchive.maxDepth else {
                    throw PMTilesFormatError(top.part, "leaf directories nest more than \(PMTilesArchive.maxDepth) levels deep (a loop?)")
                }
                guard leavesEntered.insert(entry.offset).inserted else {
                    throw PMTilesFormatError(top.part, "the pointer at tile ID \(entry.tileID) leads to the leaf directory at offset \(entry.offset) a second time (a loop?)")
                }
                let leaf = try archive.leaf(entry, caching: caching)
                levels.append(Level(entries: leaf, index: Self.start(in: leaf, at: lowerID), upper: nextID,
                                    part: "leaf directory at offset \(entry.offset)"))
                continue
            }
            try count(entry, in: top.part)
            lastEnd = entry.endID
            guard entry.endID > lowerID else { continue }
            guard entry.tileID < upperID else {
                levels.removeAll()
                return nil
            }
            return entry
        }
        return nil
    }

    /// Checks a tile entry against the header's max zoom and counts.
    private mutating func count(_ entry: PMTilesEntry, in part: String) throws(PMTilesFormatError) {
        let header = archive.header
        if entry.endID > zoomEnd {
            throw PMTilesFormatError(part, "the entry at tile ID \(entry.tileID) runs \(entry.runLength) tiles, past tile ID \(zoomEnd - 1), "
                + "the last of the header's max zoom \(header.maxZoom)")
        }
        addressed += UInt64(entry.runLength)
        entryCount += 1
        if header.addressedTilesCount > 0, addressed > header.addressedTilesCount {
            throw PMTilesFormatError(part, "the entry at tile ID \(entry.tileID) (run length \(entry.runLength)) brings the tiles addressed to "
                + "\(addressed), more than the header's addressed_tiles_count of \(header.addressedTilesCount)")
        }
        if header.tileEntriesCount > 0, entryCount > header.tileEntriesCount {
            throw PMTilesFormatError(part, "the entry at tile ID \(entry.tileID) is tile entry \(entryCount), more than the header's "
                + "tile_entries_count of \(header.tileEntriesCount)")
        }
    }

    /// After a walk of every tile ID: the runs and entries found against the header's counts.
    private func checkTotals() throws(PMTilesFormatError) {
        guard lowerID == 0, upperID >= TileID.end else { return }
        let header = archive.header
        if header.addressedTilesCount > 0, addressed != header.addressedTilesCount {
            throw PMTilesFormatError("header", "says \(header.addressedTilesCount) addressed tiles (addressed_tiles_count), the directories address \(addressed)")
        }
        if header.tileEntriesCount > 0, entryCount != header.tileEntriesCount {
            throw PMTilesFormatError("header", "says \(header.tileEntriesCount) tile entries (tile_entries_count), the directories hold \(entryCount)")
        }
    }
}
