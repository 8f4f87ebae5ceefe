/// One directory entry: `runLength` tiles from `tileID` on share the blob at `offset` (from the
/// start of the tile data section, `length` bytes); a `runLength` of 0 points to a leaf
/// directory at `offset` in the leaf section instead.
struct PMTilesEntry: Sendable, Equatable {
    /// The first tile ID it covers.
    var tileID: UInt64
    /// Where its blob (or leaf) starts, relative to its section.
    var offset: UInt64
    /// Bytes of the blob (or leaf), more than 0.
    var length: UInt32
    /// Tiles covered; 0 for a leaf pointer.
    var runLength: UInt32

    /// An entry.
    init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.length = length
        self.runLength = runLength
    }

    /// True for a pointer to a leaf directory.
    var isLeaf: Bool { runLength == 0 }

    /// One past the last tile ID it covers (a leaf pointer covers its first ID only).
    var endID: UInt64 { tileID + UInt64(max(runLength, 1)) }
}
