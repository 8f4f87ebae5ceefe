import Foundation

/// Lays out the tile data of a clustered archive from the collector's placements (tile-ID
/// order): each distinct content gets the next offset the first time a tile uses it, later
/// tiles point back to it, and consecutive tile IDs with the same blob become one run. The
/// directory entries go to a scratch file; so does the list of blobs to copy, in data order.
struct PMTilesLayout {
    /// Where to copy one blob from: an offset in the collector's scratch file, or, when the
    /// source is read again, the tile ID of a tile with those bytes.
    struct Copy {
        var blobOffset: UInt64
        var length: UInt32
    }

    let entries: ScratchFile
    let copies: ScratchFile
    private(set) var entryCount = 0
    private(set) var addressedTiles: UInt64 = 0
    private(set) var contents: UInt64 = 0
    private(set) var dataLength: UInt64 = 0
    private(set) var firstTileID: UInt64?
    private(set) var lastTileID: UInt64 = 0
    /// Tiles whose bytes repeat an earlier tile's, and those bytes.
    private(set) var duplicateTiles = 0
    private(set) var duplicateBytes = 0
    /// Tile IDs that came more than once (the last one is kept).
    private(set) var repeated = SkippedItems()

    /// Runs the layout pass.
    /// - Throws: `POSIXFileError`.
    /// - Parameter rereads: the blobs are read from the source again (copies name tile IDs).
    init(placements: SortedRecords<PMTilesTileCollector.Placement>, folder: String, rereads: Bool = false) throws(POSIXFileError) {
        entries = try ScratchFile(in: folder, purpose: "pmtiles-entries")
        copies = try ScratchFile(in: folder, purpose: "pmtiles-copies")
        let offsets = ScratchArray(folder: folder)
        var pending: PMTilesEntry?
        var held = try placements.next()
        while let placement = held {
            held = try placements.next()
            if let next = held, next.tileID == placement.tileID {
                let tile = (try? PMTilesTileID.zxy(of: placement.tileID)).map { "tile \($0.z)/\($0.x)/\($0.y)" } ?? "tile ID \(placement.tileID)"
                repeated.record(tile, reason: "appears again")
                continue
            }
            let offset: UInt64
            if let known = try offsets.value(at: Int(placement.blob)) {
                offset = known
                duplicateTiles += 1
                duplicateBytes += Int(placement.length)
            } else {
                offset = dataLength
                try offsets.set(offset, at: Int(placement.blob))
                var copy = Copy(blobOffset: rereads ? placement.tileID : placement.blobOffset, length: placement.length)
                try Self.append(&copy, to: copies)
                dataLength += UInt64(placement.length)
                contents += 1
            }
            addressedTiles += 1
            if firstTileID == nil { firstTileID = placement.tileID }
            lastTileID = placement.tileID
            if var run = pending, run.tileID + UInt64(run.runLength) == placement.tileID, run.offset == offset, run.runLength < UInt32.max {
                run.runLength += 1
                pending = run
            } else {
                if var run = pending { try emit(&run) }
                pending = PMTilesEntry(tileID: placement.tileID, offset: offset, length: placement.length, runLength: 1)
            }
        }
        if var run = pending { try emit(&run) }
        try entries.flush()
        try copies.flush()
    }

    private mutating func emit(_ entry: inout PMTilesEntry) throws(POSIXFileError) {
        try Self.append(&entry, to: entries)
        entryCount += 1
    }

    /// Appends one value with its padding (its stride), as arrays of it are read back.
    private static func append<Value>(_ value: inout Value, to file: ScratchFile) throws(POSIXFileError) {
        var failure: POSIXFileError?
        [value].withUnsafeBytes { raw in
            do throws(POSIXFileError) { try file.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Reads `count` entries from index `start`.
    func readEntries(from start: Int, count: Int) throws(POSIXFileError) -> [PMTilesEntry] {
        let stride = MemoryLayout<PMTilesEntry>.stride
        var failure: POSIXFileError?
        let result = [PMTilesEntry](unsafeUninitializedCapacity: count) { storage, initialized in
            guard let base = storage.baseAddress, count > 0 else { return }
            do throws(POSIXFileError) {
                try entries.read(at: UInt64(start * stride), count: count * stride, into: base)
                initialized = count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return result
    }
}
