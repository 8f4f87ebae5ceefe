/// The headers a tile object is written with: `Content-Type` by format, `Content-Encoding`
/// (`gzip`, `deflate` for zlib, `zstd`, `br`) for compressed vector tiles and JSON (so browsers
/// and CDNs serve them right), and the store's `Cache-Control`.
struct S3ObjectHeaders {
    let cacheControl: String?
    /// The tiles' compression as the metadata declares it (`compression=`): brotli has no magic
    /// bytes to sniff.
    var declaredCompression: TileCompression?
    var declaredFormat: TileFormat?

    /// The headers for one tile's bytes.
    func headers(for data: some Collection<UInt8>) -> [String: String] {
        let sniffed = SniffedTileFormat(sniffing: data, declaredCompression: declaredCompression, declaredFormat: declaredFormat)
        var headers = ["Content-Type": sniffed.format.mediaType]
        if let encoding = sniffed.contentEncoding { headers["Content-Encoding"] = encoding }
        if let cacheControl { headers["Cache-Control"] = cacheControl }
        return headers
    }

    /// Takes the declared compression and format of the metadata a writer begins with.
    mutating func declare(_ metadata: TileMetadata) {
        declaredCompression = metadata["compression"].flatMap { TileCompression(rawValue: $0.lowercased()) }
        declaredFormat = metadata.format
    }
}
