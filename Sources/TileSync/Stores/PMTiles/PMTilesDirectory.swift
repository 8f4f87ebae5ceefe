/// The serialized form of a directory (spec v3, section 4): an entry count, then the columns
/// of tile-ID deltas, run lengths, lengths and offsets (0 = right after the previous entry's
/// blob, else offset + 1), all as varints; the internal compression is applied around it.
enum PMTilesDirectory {
    /// Decodes the uncompressed bytes of a directory, checking what the spec requires: IDs in
    /// increasing order, runs that neither overlap nor pass zoom 31, lengths above 0, numbers
    /// that fit, nothing left over.
    /// - Parameter allowsEmpty: a root directory may hold no entry (an archive of no tiles).
    /// - Throws: `PMTilesFormatError` naming `part`.
    static func decode(_ bytes: [UInt8], part: String, allowsEmpty: Bool = false) throws(PMTilesFormatError) -> [PMTilesEntry] {
        var reader = PMTilesByteReader(bytes, part: part)
        let claimed = try reader.varint()
        if claimed == 0 && !allowsEmpty { throw PMTilesFormatError(part, "holds no entries") }
        // Every entry takes at least four bytes: the count cannot pass the bytes that follow.
        guard claimed <= UInt64(reader.remaining / 4) else {
            throw PMTilesFormatError(part, "claims \(claimed) entries but has \(reader.remaining) bytes for them")
        }
        let count = Int(claimed)
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var lastID: UInt64 = 0
        for index in 0..<count {
            let delta = try reader.varint()
            if index > 0 && delta == 0 { throw PMTilesFormatError(part, "entry \(index) repeats tile ID \(lastID)") }
            let (id, overflow) = lastID.addingReportingOverflow(delta)
            guard !overflow, id < TileID.end else {
                throw PMTilesFormatError(part, "entry \(index) has a tile ID past zoom 31")
            }
            entries[index].tileID = id
            lastID = id
        }
        for index in 0..<count {
            let run = try reader.varint()
            guard run <= UInt64(UInt32.max) else { throw PMTilesFormatError(part, "entry \(index) has a run length of \(run), above 2^32 - 1") }
            guard entries[index].tileID + run <= TileID.end else {
                throw PMTilesFormatError(part, "entry \(index) runs past zoom 31")
            }
            entries[index].runLength = UInt32(run)
            if index > 0, entries[index - 1].endID > entries[index].tileID {
                throw PMTilesFormatError(part, "entry \(index - 1) runs into entry \(index) (tile ID \(entries[index].tileID))")
            }
        }
        for index in 0..<count {
            let length = try reader.varint()
            guard length > 0 else { throw PMTilesFormatError(part, "entry \(index) has length 0") }
            guard length <= UInt64(UInt32.max) else { throw PMTilesFormatError(part, "entry \(index) has a length above 2^32 - 1") }
            entries[index].length = UInt32(length)
        }
        for index in 0..<count {
            let value = try reader.varint()
            if value == 0 {
                guard index > 0 else { throw PMTilesFormatError(part, "entry 0 says it follows a previous entry") }
                let previous = entries[index - 1]
                let (offset, overflow) = previous.offset.addingReportingOverflow(UInt64(previous.length))
                if overflow { throw PMTilesFormatError(part, "entry \(index) has an offset above 2^64") }
                entries[index].offset = offset
            } else {
                entries[index].offset = value - 1
            }
        }
        guard reader.remaining == 0 else { throw PMTilesFormatError(part, "has \(reader.remaining) bytes after its entries") }
        return entries
    }

    /// The uncompressed bytes of a directory of `entries` (in tile-ID order).
    static func encode(_ entries: some Collection<PMTilesEntry>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 6 + 10)
        PMTilesByteReader.appendVarint(UInt64(entries.count), to: &bytes)
        var lastID: UInt64 = 0
        for entry in entries {
            PMTilesByteReader.appendVarint(entry.tileID - lastID, to: &bytes)
            lastID = entry.tileID
        }
        for entry in entries { PMTilesByteReader.appendVarint(UInt64(entry.runLength), to: &bytes) }
        for entry in entries { PMTilesByteReader.appendVarint(UInt64(entry.length), to: &bytes) }
        var previous: PMTilesEntry?
        for entry in entries {
            if let previous, entry.offset == previous.offset + UInt64(previous.length) {
                bytes.append(0)
            } else {
                PMTilesByteReader.appendVarint(entry.offset + 1, to: &bytes)
            }
            previous = entry
        }
        return bytes
    }
}
