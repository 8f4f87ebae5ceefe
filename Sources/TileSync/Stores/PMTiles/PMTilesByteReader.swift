/// Reads little-endian varints (as PMTiles directories store every number) from bytes, with
/// every overrun and overflow an error naming the part being read.
struct PMTilesByteReader {
    let bytes: [UInt8]
    let part: String
    private(set) var offset = 0

    init(_ bytes: [UInt8], part: String) {
        self.bytes = bytes
        self.part = part
    }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - offset }

    /// The next varint (at most 10 bytes, value below 2^64).
    /// - Throws: `PMTilesFormatError` when the bytes end inside it or it overflows 64 bits.
    mutating func varint() throws(PMTilesFormatError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else {
                throw PMTilesFormatError(part, "ends inside a number (byte \(offset))")
            }
            let byte = bytes[offset]
            offset += 1
            if shift == 63 && byte > 1 {
                throw PMTilesFormatError(part, "a number at byte \(offset - 1) overflows 64 bits")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            if shift > 63 { throw PMTilesFormatError(part, "a number at byte \(offset - 1) overflows 64 bits") }
        }
    }

    /// Appends `value` as a varint.
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
