extension TileTransformSettings {
    /// Re-encode vector tiles into this compression (`--compress`); nil keeps their bytes.
    public var compression: TileCompression? {
        get { value("compression", as: TileCompression.self) }
        set { set("compression", newValue) }
    }
}

/// `--compress`: vector tiles re-encoded into one compression (`TileRecompressor`); raster
/// tiles pass as they are. The metadata's `compression` says the new one (zlib is written as
/// gzip).
struct RecompressionTransform: TileTransform, TileTransformKind {
    let recompressor: TileRecompressor

    static let commandLineOptions = [
        TileTransformSettings.CommandLineOption(name: "compress", placeholder: "gzip|none|zstd|brotli",
                                                help: "Re-encode vector tiles (gzip, zlib, zstd decoded by their\nbytes, brotli when the source declares it); raster tiles\nare kept as they are."),
    ]

    static func read(_ given: [String: String], into settings: inout TileTransformSettings) throws(TileTransformSettings.ValueError) {
        guard let text = given["compress"] else { return }
        guard let compression = TileCompression(rawValue: text), compression != .zlib else {
            throw TileTransformSettings.ValueError("--compress must be gzip, none, zstd or brotli, not '\(text)'")
        }
        settings.compression = compression
    }

    static func make(_ settings: TileTransformSettings, _ reader: any TileReader) throws -> (any TileTransform)? {
        guard let target = settings.compression else { return nil }
        return RecompressionTransform(recompressor: TileRecompressor(target: target, declared: try reader.declaredTileCompression(),
                                                                     declaredFormat: try reader.metadata().format,
                                                                     store: reader.location.address))
    }

    /// The compression written tiles declare.
    var target: TileCompression { recompressor.target == .zlib ? .gzip : recompressor.target }

    var identity: String { "compress \(recompressor.target.rawValue)" }

    func apply(_ tile: Tile, codecs: TileRecompressor.Codecs) throws(TileStoreError) -> TileTransformOutcome {
        guard let written = try recompressor.recompress(tile, codecs: codecs) else { return .unchanged(.rasterPassed) }
        return written.data == tile.data ? .unchanged(nil) : .rewritten(written)
    }

    func adjust(_ metadata: inout TileMetadata) {
        metadata["compression"] = target.rawValue
    }
}
