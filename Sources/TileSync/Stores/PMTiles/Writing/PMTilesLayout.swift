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

    private(set) var runs: PMTilesEntryRuns
    let copies: ScratchFile
    /// Tile IDs that came more than once (the last one is kept).
    private(set) var repeated = SkippedItems()

    /// What was stored once for tiles that repeat a blob, and the tiles that came twice.
    var counts: BlobCounts {
        BlobCounts(duplicateTiles: runs.duplicateTiles, duplicateBytes: runs.duplicateBytes, repeated: repeated)
    }

    /// Runs the layout pass.
    /// - Throws: `POSIXFileError`.
    /// - Parameter rereads: the blobs are read from the source again (copies name tile IDs).
    init(placements: SortedRecords<PMTilesTileCollector.Placement>, folder: String, rereads: Bool = false) throws(POSIXFileError) {
        runs = try PMTilesEntryRuns(folder: folder)
        copies = try ScratchFile(in: folder, purpose: "pmtiles-copies")
        let offsets = ScratchArray(folder: folder)
        var held = try placements.next()
        while let placement = held {
            held = try placements.next()
            if let next = held, next.tileID == placement.tileID {
                let tile = (try? TileID.zxy(of: placement.tileID)).map { "tile \($0.z)/\($0.x)/\($0.y)" } ?? "tile ID \(placement.tileID)"
                repeated.record(tile, reason: "appears again")
                continue
            }
            let known = try offsets.value(at: Int(placement.blob))
            let offset = try runs.place(placement.tileID, length: placement.length, storedAt: known)
            if known == nil {
                try offsets.set(offset, at: Int(placement.blob))
                var copy = Copy(blobOffset: rereads ? placement.tileID : placement.blobOffset, length: placement.length)
                try Self.append(&copy, to: copies)
            }
        }
        try runs.flush()
        try copies.flush()
    }

    /// Appends one value with its padding (its stride), as arrays of it are read back.
    private static func append<Value>(_ value: inout Value, to file: ScratchFile) throws(POSIXFileError) {
        var failure: POSIXFileError?
        [value].withUnsafeBytes { raw in
            do throws(POSIXFileError) { try file.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
