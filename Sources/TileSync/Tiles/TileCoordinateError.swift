/// Why a tile coordinate was rejected.
public enum TileCoordinateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Zoom outside 0...30.
    case zoomOutOfRange(Int)
    /// Column outside 0..<2^z.
    case columnOutOfRange(z: Int, x: Int)
    /// XYZ row outside 0..<2^z.
    case rowOutOfRange(z: Int, y: Int)
    /// TMS row (MBTiles `tile_row`) outside 0..<2^z.
    case tmsRowOutOfRange(z: Int, row: Int)
    /// Text that is not `z/x/y` with decimal numbers.
    case malformed(String)
    /// Text that is not a quadkey of digits 0-3.
    case malformedQuadkey(String)

    public var description: String {
        switch self {
        case .zoomOutOfRange(let z):
            "zoom \(z) is out of range (0...\(TileCoordinate.maxZoom))"
        case .columnOutOfRange(let z, let x):
            "column x=\(x) is out of range at zoom \(z) (0...\(TileCoordinateError.maxIndex(z)))"
        case .rowOutOfRange(let z, let y):
            "row y=\(y) is out of range at zoom \(z) (0...\(TileCoordinateError.maxIndex(z)))"
        case .tmsRowOutOfRange(let z, let row):
            "TMS row \(row) is out of range at zoom \(z) (0...\(TileCoordinateError.maxIndex(z)))"
        case .malformed(let text):
            "'\(text)' is not a tile coordinate z/x/y"
        case .malformedQuadkey(let text):
            "'\(text)' is not a quadkey (digits 0-3, at most \(TileCoordinate.maxZoom))"
        }
    }

    private static func maxIndex(_ z: Int) -> Int { (1 << z) - 1 }
}
