import Foundation

/// The directory entries of a clustered archive as its tiles are placed in tile-ID order:
/// consecutive tile IDs with the same blob become one run, finished entries go to a scratch
/// file, and the header's counts are kept on the way.
struct PMTilesEntryRuns {
    private(set) var entries: PMTilesEntryFile
    private var pending: PMTilesEntry?
    private(set) var addressedTiles: UInt64 = 0
    private(set) var contents: UInt64 = 0
    /// Bytes of the tile data section so far: where the next new blob goes.
    private(set) var dataLength: UInt64 = 0
    private(set) var firstTileID: UInt64?
    private(set) var lastTileID: UInt64 = 0
    /// Tiles whose bytes repeat an earlier tile's, and those bytes.
    private(set) var duplicateTiles = 0
    private(set) var duplicateBytes = 0

    /// - Throws: `POSIXFileError` when the scratch file cannot be made in `folder`.
    init(folder: String) throws(POSIXFileError) {
        entries = try PMTilesEntryFile(folder: folder)
    }

    /// The zooms of the first and last tile placed (0, 0 when none was).
    var zooms: (min: Int, max: Int) {
        firstTileID.map { (TileID.zoom(of: $0), TileID.zoom(of: lastTileID)) } ?? (0, 0)
    }

    /// Places the next tile (its ID above every one so far): at `offset` in the tile data when
    /// its blob is stored already, else at the end of the data, which grows by `length`.
    /// - Returns: the tile's offset in the tile data.
    /// - Throws: `POSIXFileError` from the scratch file.
    mutating func place(_ id: UInt64, length: UInt32, storedAt offset: UInt64?) throws(POSIXFileError) -> UInt64 {
        let placed: UInt64
        if let offset {
            placed = offset
            duplicateTiles += 1
            duplicateBytes += Int(length)
        } else {
            placed = dataLength
            dataLength += UInt64(length)
            contents += 1
        }
        addressedTiles += 1
        if firstTileID == nil { firstTileID = id }
        lastTileID = id
        if var run = pending, run.tileID + UInt64(run.runLength) == id, run.offset == placed, run.runLength < UInt32.max {
            run.runLength += 1
            pending = run
        } else {
            if let run = pending { try entries.append(run) }
            pending = PMTilesEntry(tileID: id, offset: placed, length: length, runLength: 1)
        }
        return placed
    }

    /// Writes the last run and flushes the scratch file.
    /// - Throws: `POSIXFileError`.
    mutating func flush() throws(POSIXFileError) {
        if let run = pending { try entries.append(run) }
        pending = nil
        try entries.flush()
    }

    /// Takes the entries again after blobs stored twice were removed: `removedBlobs` later
    /// copies of `removedBytes` bytes, whose tiles are duplicates now.
    mutating func replaceEntries(with entries: PMTilesEntryFile, removedBlobs: Int, removedBytes: UInt64) {
        self.entries = entries
        contents -= UInt64(removedBlobs)
        dataLength -= removedBytes
        duplicateTiles += removedBlobs
        duplicateBytes += Int(removedBytes)
    }

    /// Sets the header's tile, entry and content counts.
    func count(into header: inout PMTilesHeader) {
        header.addressedTilesCount = addressedTiles
        header.tileEntriesCount = UInt64(entries.count)
        header.tileContentsCount = contents
    }
}
