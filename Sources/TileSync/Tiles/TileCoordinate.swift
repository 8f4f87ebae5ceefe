/// A tile address in the XYZ ("slippy map") scheme: origin at the north-west corner,
/// `y` grows southward, `0 <= x, y < 2^z`, `0 <= z <= 30`.
///
/// Every public TileSync API takes and returns XYZ. TMS rows (`tmsY`, south origin, as
/// MBTiles stores `tile_row`) appear only at the edges of stores that use them.
public struct TileCoordinate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The highest zoom level TileSync accepts (`2^30` tiles per axis).
    public static let maxZoom = 30

    /// Zoom level, 0...30.
    public let z: Int
    /// Column, 0..<2^z, west to east.
    public let x: Int
    /// Row, 0..<2^z, north to south (XYZ).
    public let y: Int

    /// Creates an XYZ coordinate.
    /// - Throws: `TileCoordinateError` when `z` is outside 0...30 or `x`/`y` outside 0..<2^z.
    public init(z: Int, x: Int, y: Int) throws(TileCoordinateError) {
        guard (0...Self.maxZoom).contains(z) else { throw .zoomOutOfRange(z) }
        let size = 1 << z
        guard (0..<size).contains(x) else { throw .columnOutOfRange(z: z, x: x) }
        guard (0..<size).contains(y) else { throw .rowOutOfRange(z: z, y: y) }
        self.z = z
        self.x = x
        self.y = y
    }

    /// Creates a coordinate from a TMS row (origin at the south), as MBTiles stores `tile_row`.
    /// - Throws: `TileCoordinateError` when any part is out of range (the message names the TMS row).
    public init(z: Int, x: Int, tmsY: Int) throws(TileCoordinateError) {
        guard (0...Self.maxZoom).contains(z) else { throw .zoomOutOfRange(z) }
        let size = 1 << z
        guard (0..<size).contains(tmsY) else { throw .tmsRowOutOfRange(z: z, row: tmsY) }
        try self.init(z: z, x: x, y: size - 1 - tmsY)
    }

    /// Parses `z/x/y` (XYZ), the form the command line and logs use.
    /// - Throws: `TileCoordinateError.malformed` for anything else, or a range error.
    public init(parsing text: String) throws(TileCoordinateError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let z = DecimalText.integer(parts[0]),
              let x = DecimalText.integer(parts[1]),
              let y = DecimalText.integer(parts[2])
        else { throw .malformed(text) }
        try self.init(z: z, x: x, y: y)
    }

    /// Number of tiles along one axis at zoom `z`: `2^z`.
    public static func tilesPerAxis(atZoom z: Int) -> Int { 1 << z }

    /// The row in the TMS scheme (origin at the south): `2^z - 1 - y`.
    public var tmsY: Int { (1 << z) - 1 - y }

    /// The Bing Maps quadkey: one base-4 digit per zoom level, empty at zoom 0.
    public var quadkey: String {
        var digits: [UInt8] = []
        digits.reserveCapacity(z)
        for level in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            var digit: UInt8 = 48
            if x & mask != 0 { digit += 1 }
            if y & mask != 0 { digit += 2 }
            digits.append(digit)
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// Creates a coordinate from a quadkey (digits 0-3, at most 30 of them).
    /// - Throws: `TileCoordinateError.malformedQuadkey` for other characters or lengths.
    public init(quadkey: some StringProtocol) throws(TileCoordinateError) {
        let utf8 = Array(quadkey.utf8)
        guard utf8.count <= Self.maxZoom else { throw .malformedQuadkey(String(quadkey)) }
        var x = 0
        var y = 0
        for byte in utf8 {
            guard (48...51).contains(byte) else { throw .malformedQuadkey(String(quadkey)) }
            let digit = Int(byte - 48)
            x = x << 1 | digit & 1
            y = y << 1 | digit >> 1
        }
        try self.init(z: utf8.count, x: x, y: y)
    }

    /// The parent tile one zoom level up, or nil at zoom 0.
    public var parent: TileCoordinate? {
        guard z > 0 else { return nil }
        return TileCoordinate(unchecked: z - 1, x >> 1, y >> 1)
    }

    /// `z/x/y` in XYZ.
    public var description: String { "\(z)/\(x)/\(y)" }

    /// Orders by zoom, then column, then XYZ row: the stable order stores stream in.
    public static func < (lhs: TileCoordinate, rhs: TileCoordinate) -> Bool {
        (lhs.z, lhs.x, lhs.y) < (rhs.z, rhs.x, rhs.y)
    }

    /// For values already proven in range by the caller.
    init(unchecked z: Int, _ x: Int, _ y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }
}
