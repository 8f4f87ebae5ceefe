import Foundation

extension PMTilesHeader {
    /// The tile type enum of the PMTiles header.
    public enum TileType: UInt8, Sendable, CustomStringConvertible {
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
            case .mlt: self = .mlt
            case .gif, .json, .unknown: self = .unknown
            }
        }

        /// The type a store's declared `format` names (`mlt` and martin's
        /// `application/vnd.maplibre-vector-tile`, `avif`, and every name `TileFormat(declared:)`
        /// knows); nil for other names. MapLibre Tiles and AVIF have no magic bytes the sniffer
        /// knows, so only the declaration tells them.
        init?(declared name: String) {
            switch name.lowercased().trimmingCharacters(in: .whitespaces) {
            case "avif", "image/avif": self = .avif
            default:
                guard let format = TileFormat(declared: name) else { return nil }
                self.init(format)
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
}
