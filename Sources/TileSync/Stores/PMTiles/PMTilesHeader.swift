/// The fixed 127-byte header of a PMTiles v3 archive: where each section is, the counts, and
/// the tile set's compression, type, zooms, bounds and centre. Little-endian throughout.
public struct PMTilesHeader: Sendable, Equatable {
    /// Bytes in a serialized header.
    public static let size = 127
    /// The magic number at its start.
    static let magic = Array("PMTiles".utf8)

    public var rootOffset: UInt64 = 0
    public var rootLength: UInt64 = 0
    public var metadataOffset: UInt64 = 0
    public var metadataLength: UInt64 = 0
    public var leafDirectoriesOffset: UInt64 = 0
    public var leafDirectoriesLength: UInt64 = 0
    public var tileDataOffset: UInt64 = 0
    public var tileDataLength: UInt64 = 0
    /// Tiles addressed (sum of run lengths), 0 when unknown.
    public var addressedTilesCount: UInt64 = 0
    /// Entries with a run length above 0, 0 when unknown.
    public var tileEntriesCount: UInt64 = 0
    /// Distinct blobs in the tile data, 0 when unknown.
    public var tileContentsCount: UInt64 = 0
    /// Blobs are in tile-ID order.
    public var isClustered = false
    /// The raw `InternalCompression` byte.
    public var internalCompressionValue: UInt8 = PMTilesHeader.Compression.gzip.rawValue
    /// The raw `TileCompression` byte.
    public var tileCompressionValue: UInt8 = PMTilesHeader.Compression.unknown.rawValue
    /// The raw tile type byte.
    public var tileTypeValue: UInt8 = PMTilesHeader.TileType.unknown.rawValue
    public var minZoom: UInt8 = 0
    public var maxZoom: UInt8 = 0
    /// Bounds in degrees × 10^7.
    public var minLongitudeE7: Int32 = 0
    public var minLatitudeE7: Int32 = 0
    public var maxLongitudeE7: Int32 = 0
    public var maxLatitudeE7: Int32 = 0
    public var centerZoom: UInt8 = 0
    public var centerLongitudeE7: Int32 = 0
    public var centerLatitudeE7: Int32 = 0

    /// A header of zeros (gzip internal compression, unknown tiles).
    public init() {}

    /// The internal compression, nil for a value the spec does not define.
    public var internalCompression: PMTilesHeader.Compression? { PMTilesHeader.Compression(rawValue: internalCompressionValue) }
    /// The tile compression, nil for a value the spec does not define.
    public var tileCompression: PMTilesHeader.Compression? { PMTilesHeader.Compression(rawValue: tileCompressionValue) }
    /// The tile type, nil for a value the spec does not define.
    public var tileType: PMTilesHeader.TileType? { PMTilesHeader.TileType(rawValue: tileTypeValue) }

    /// Reads a header.
    /// - Throws: `PMTilesFormatError` (part `header`) for fewer than 127 bytes, another magic
    ///   number or a version other than 3.
    init(parsing bytes: [UInt8]) throws(PMTilesFormatError) {
        let startsWithMagic = bytes.count >= 7 ? bytes.starts(with: Self.magic) : !bytes.isEmpty && Self.magic.starts(with: bytes)
        guard startsWithMagic else {
            if bytes.count >= 4, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "M"), bytes[2] <= 2, bytes[3] == 0 {
                throw PMTilesFormatError("header", "is PMTiles version \(bytes[2]), which TileSync does not read (only version 3; `pmtiles convert` upgrades it)")
            }
            throw PMTilesFormatError("header", "does not start with the PMTiles magic number")
        }
        guard bytes.count >= Self.size else {
            throw PMTilesFormatError("header", "is \(bytes.count) bytes, shorter than the 127 of a PMTiles v3 header")
        }
        guard bytes[7] == 3 else {
            throw PMTilesFormatError("header", "is PMTiles version \(bytes[7]), which TileSync does not read (only version 3)")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }) }
        rootOffset = u64(8)
        rootLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafDirectoriesOffset = u64(40)
        leafDirectoriesLength = u64(48)
        tileDataOffset = u64(56)
        tileDataLength = u64(64)
        addressedTilesCount = u64(72)
        tileEntriesCount = u64(80)
        tileContentsCount = u64(88)
        isClustered = bytes[96] == 1
        internalCompressionValue = bytes[97]
        tileCompressionValue = bytes[98]
        tileTypeValue = bytes[99]
        minZoom = bytes[100]
        maxZoom = bytes[101]
        minLongitudeE7 = i32(102)
        minLatitudeE7 = i32(106)
        maxLongitudeE7 = i32(110)
        maxLatitudeE7 = i32(114)
        centerZoom = bytes[118]
        centerLongitudeE7 = i32(119)
        centerLatitudeE7 = i32(123)
    }

    /// The 127 bytes of this header.
    func serialized() -> [UInt8] {
        var bytes = Self.magic + [3]
        bytes.reserveCapacity(Self.size)
        func u64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
        func i32(_ value: Int32) { let bits = UInt32(bitPattern: value); for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) } }
        for value in [rootOffset, rootLength, metadataOffset, metadataLength, leafDirectoriesOffset, leafDirectoriesLength,
                      tileDataOffset, tileDataLength, addressedTilesCount, tileEntriesCount, tileContentsCount] { u64(value) }
        bytes += [isClustered ? 1 : 0, internalCompressionValue, tileCompressionValue, tileTypeValue, minZoom, maxZoom]
        for value in [minLongitudeE7, minLatitudeE7, maxLongitudeE7, maxLatitudeE7] { i32(value) }
        bytes.append(centerZoom)
        i32(centerLongitudeE7)
        i32(centerLatitudeE7)
        return bytes
    }

    /// The sections as (name, offset, length), for range checks and `info`.
    var sections: [(name: String, offset: UInt64, length: UInt64)] {
        [("root directory", rootOffset, rootLength), ("metadata", metadataOffset, metadataLength),
         ("leaf directories", leafDirectoriesOffset, leafDirectoriesLength), ("tile data", tileDataOffset, tileDataLength)]
    }
}
