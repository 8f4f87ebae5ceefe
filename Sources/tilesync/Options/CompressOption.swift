import TileSync

/// `--compress gzip|none|zstd|brotli` of `convert` and `sync`: the compression vector tiles get.
enum CompressOption: String, CaseIterable {
    case gzip, none, zstd, brotli

    static let definition = OptionDefinition.value("compress", "gzip|none|zstd|brotli",
                                                   help: "Re-encode vector tiles (gzip, zlib, zstd decoded by their\nbytes, brotli when the source declares it); raster tiles\nare kept as they are.")

    /// The compression asked for, nil when the option is absent.
    /// - Throws: `UsageError` for another value.
    static func compression(_ arguments: ParsedArguments) throws(UsageError) -> TileCompression? {
        try arguments.choice(definition, as: Self.self).flatMap { TileCompression(rawValue: $0.rawValue) }
    }
}
