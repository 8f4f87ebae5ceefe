/// The tile type enum of the PMTiles header.
public enum PMTilesTileType: UInt8, Sendable, CustomStringConvertible {
    case unknown = 0
    case mvt = 1
    case png = 2
    case jpeg = 3
    case webp = 4
    case avif = 5
    /// MapLibre Tile, a later addition to the enum.
    case mlt = 6

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .mvt: "mvt"
        case .png: "png"
        case .jpeg: "jpeg"
        case .webp: "webp"
        case .avif: "avif"
        case .mlt: "mlt"
        }
    }

    /// The header value for tiles of a format (gif and JSON have none: unknown).
    init(_ format: TileFormat) {
        switch format {
        case .pbf: self = .mvt
        case .png: self = .png
        case .jpeg: self = .jpeg
        case .webp: self = .webp
        case .gif, .json, .unknown: self = .unknown
        }
    }

    /// The MBTiles `format` value of this type, nil for unknown.
    var formatName: String? {
        switch self {
        case .unknown: nil
        case .mvt: "pbf"
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        case .avif: "avif"
        case .mlt: "mlt"
        }
    }
}
