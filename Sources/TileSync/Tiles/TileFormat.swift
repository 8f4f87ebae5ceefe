import Foundation

/// The content type of tile bytes, as MBTiles `format` metadata names it.
public enum TileFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case png
    case jpeg = "jpg"
    case webp
    case gif
    /// Mapbox Vector Tile (protobuf), compressed or not.
    case pbf
    case json
    /// MapLibre Tile (MLT), compressed or not: no magic bytes tell it, only a store's `format`
    /// (`mlt`, `application/vnd.maplibre-vector-tile`). Carried, not decoded.
    case mlt
    /// Bytes that match no known signature.
    case unknown

    /// The MBTiles `format` value and file extension (`jpg` for JPEG, `bin` for unknown).
    public var fileExtension: String { self == .unknown ? "bin" : rawValue }

    public var description: String { rawValue }

    /// The IANA media type (HTTP `Content-Type`): `image/png`, `application/vnd.mapbox-vector-tile`, ...
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .pbf: "application/vnd.mapbox-vector-tile"
        case .json: "application/json"
        case .mlt: "application/vnd.maplibre-vector-tile"
        case .unknown: "application/octet-stream"
        }
    }

    /// Reads an MBTiles `format` value or a file extension: `png`, `jpg`/`jpeg`, `webp`, `gif`,
    /// `pbf`/`mvt`, `json`/`geojson`, `mlt`, and the matching IETF media types. Unknown names give nil.
    public init?(declared name: String) {
        switch name.lowercased().trimmingCharacters(in: .whitespaces) {
        case "png", "image/png": self = .png
        case "jpg", "jpeg", "image/jpeg": self = .jpeg
        case "webp", "image/webp": self = .webp
        case "gif", "image/gif": self = .gif
        case "pbf", "mvt", "application/x-protobuf", "application/vnd.mapbox-vector-tile": self = .pbf
        case "json", "geojson", "application/json", "application/geo+json": self = .json
        case "mlt", "application/vnd.maplibre-vector-tile": self = .mlt
        default: return nil
        }
    }
}

/// How tile bytes are compressed on the outside (vector tiles usually are).
public enum TileCompression: String, Sendable, CaseIterable {
    case none
    case gzip
    case zlib
    case zstd
    /// Has no magic bytes: known only from what a store declares.
    case brotli
}

/// What the first bytes of a tile say it is.
public struct SniffedTileFormat: Hashable, Sendable, CustomStringConvertible {
    /// The content type.
    public let format: TileFormat
    /// The outer compression.
    public let compression: TileCompression

    /// Looks at the magic bytes: PNG, JPEG, WebP, GIF, gzip, zlib and zstd streams (taken as compressed
    /// vector tiles), a JSON object or array, an uncompressed MVT (first field is a layer).
    public init(sniffing bytes: some Collection<UInt8>) {
        // No copy to the heap: this runs for every tile a conversion writes.
        if let sniffed = bytes.withContiguousStorageIfAvailable({ Self(head: UnsafeBufferPointer(rebasing: $0.prefix(16))) }) {
            self = sniffed
            return
        }
        self = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            var count = 0
            for byte in bytes.prefix(16) {
                buffer[count] = byte
                count += 1
            }
            return Self(head: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    private init(head: UnsafeBufferPointer<UInt8>) {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && head[offset..<offset + magic.count].elementsEqual(magic)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self.init(.png)
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self.init(.jpeg)
        } else if starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], at: 8) {
            self.init(.webp)
        } else if starts([0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || starts([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]) {
            self.init(.gif)
        } else if starts([0x1F, 0x8B]) {
            self.init(.pbf, .gzip)
        } else if head.count >= 2, head[0] == 0x78, [0x01, 0x5E, 0x9C, 0xDA].contains(head[1]) {
            self.init(.pbf, .zlib)
        } else if starts([0x28, 0xB5, 0x2F, 0xFD]) {
            self.init(.pbf, .zstd)
        } else if let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
                  first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            self.init(.json)
        } else if head.first == 0x1A {
            self.init(.pbf)
        } else {
            self.init(.unknown)
        }
    }

    /// Sniffs the bytes, and where they cannot tell takes what the store declares: under a
    /// declared brotli compression, which has no magic bytes (its output may start with `{` or
    /// a zlib header by chance), only an image's magic counts; anything else is brotli-compressed
    /// tiles of the declared format (vector tiles unless the metadata says another).
    public init(sniffing bytes: some Collection<UInt8>, declaredCompression: TileCompression?, declaredFormat: TileFormat?) {
        self = SniffedTileFormat(sniffing: bytes).declaring(compression: declaredCompression, format: declaredFormat)
    }

    /// What the bytes said, corrected by what the store declares: under a declared brotli
    /// compression anything but an image is brotli-compressed tiles of the declared format; in a
    /// store of MapLibre Tiles anything but an image is MLT, in the compression its magic bytes
    /// name (`init(sniffing:declaredCompression:declaredFormat:)`).
    public func declaring(compression declaredCompression: TileCompression?, format declaredFormat: TileFormat?) -> SniffedTileFormat {
        // Brotli output starts with any byte: a `{`, a 0x1A or even a zlib header says nothing
        // about it, and neither do MLT's bytes. Only an image's long magic outweighs the declaration.
        guard ![.png, .jpeg, .webp, .gif].contains(format) else { return self }
        if declaredCompression == .brotli {
            return SniffedTileFormat(declaredFormat.flatMap { $0 == .unknown ? nil : $0 } ?? .pbf, .brotli)
        }
        if declaredFormat == .mlt { return SniffedTileFormat(.mlt, format == .pbf ? compression : .none) }
        return self
    }

    /// How bytes so sniffed are read as a vector tile, for the layer filter, `info --stats` and
    /// `verify --deep` alike: a vector tile in its compression; bytes of no known format in the
    /// declared brotli, else as they are with `isGuess` (one may begin with a field other than a
    /// layer, and garbage looks the same); nil for an image or JSON.
    func vectorReading(declared: TileCompression?) -> (compression: TileCompression, isGuess: Bool)? {
        switch format {
        case .pbf: (compression, false)
        case .unknown: declared == .brotli ? (.brotli, false) : (.none, true)
        case .png, .jpeg, .webp, .gif, .json, .mlt: nil
        }
    }

    /// What to say of vector tiles whose bytes have no magic: brotli has none, so the store must
    /// declare it.
    static let brotliHint = "brotli has no magic bytes: if the tiles are brotli-compressed, set compression=brotli in the metadata"

    /// A format as given, without sniffing.
    public init(_ format: TileFormat, _ compression: TileCompression = .none) {
        self.format = format
        self.compression = compression
    }

    /// The HTTP `Content-Encoding` that tells a browser to decompress the bytes (`gzip`,
    /// `deflate` for zlib, `zstd`, `br`), or nil when they are not compressed.
    public var contentEncoding: String? {
        switch compression {
        case .none: nil
        case .gzip: "gzip"
        case .zlib: "deflate"
        case .zstd: "zstd"
        case .brotli: "br"
        }
    }

    /// `png`, or `pbf (gzip)` for compressed content.
    public var description: String {
        compression == .none ? format.rawValue : "\(format.rawValue) (\(compression.rawValue))"
    }
}
