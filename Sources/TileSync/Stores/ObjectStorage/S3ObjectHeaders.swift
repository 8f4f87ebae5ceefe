/// The headers a tile object is written with: `Content-Type` by format, `Content-Encoding:
/// gzip` for gzipped vector tiles and JSON (so browsers and CDNs serve them right), and the
/// store's `Cache-Control`.
struct S3ObjectHeaders {
    let cacheControl: String?

    /// The headers for one tile's bytes.
    func headers(for data: some Collection<UInt8>) -> [String: String] {
        let sniffed = SniffedTileFormat(sniffing: data)
        var headers = ["Content-Type": Self.contentType(sniffed.format)]
        if sniffed.compression == .gzip { headers["Content-Encoding"] = "gzip" }
        if let cacheControl { headers["Cache-Control"] = cacheControl }
        return headers
    }

    /// The media type of a format.
    static func contentType(_ format: TileFormat) -> String {
        switch format {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .pbf: "application/vnd.mapbox-vector-tile"
        case .json: "application/json"
        case .unknown: "application/octet-stream"
        }
    }
}
