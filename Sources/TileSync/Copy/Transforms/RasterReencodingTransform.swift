extension TileTransformSettings {
    /// Re-encode raster tiles (`--tile-format`, `--quality`, `--lossless`, `--background`,
    /// `--drop-empty`); nil keeps their bytes.
    public var rasterEncoding: RasterReencoder.Encoding? {
        get { value("rasterEncoding", as: RasterReencoder.Encoding.self) }
        set { set("rasterEncoding", newValue) }
    }
}

/// `--tile-format`, `--quality`, `--lossless`, `--background`, `--drop-empty`: raster tiles
/// re-encoded (`RasterReencoder`) on every core, one tile an iteration; a tile whose own bytes
/// are smaller keeps them; fully transparent tiles are dropped when asked. With a target format
/// every tile must be an image, and the metadata's `format` names the target.
struct RasterReencodingTransform: TileTransform, TileTransformKind {
    let reencoder: RasterReencoder

    static let commandLineOptions: [TileTransformSettings.CommandLineOption] = [
        .init(name: "tile-format", placeholder: "webp|png|jpeg",
              help: "Re-encode raster tiles (PNG, JPEG, WebP) into this format, on\nevery core; png is written in its smallest colour layout at\nzlib level 9. A tile that comes out larger in its own format\nkeeps its bytes."),
        .init(name: "quality", placeholder: "0-100", help: "Quality of lossy WebP and JPEG, effort of lossless WebP\n(default 75, as cwebp and cjpeg)."),
        .init(name: "lossless", placeholder: nil, help: "Lossless WebP: every pixel kept exactly (with --tile-format webp)."),
        .init(name: "background", placeholder: "COLOR",
              help: "Flatten transparent pixels onto this colour (#rrggbb, white,\nblack) for --tile-format jpeg; without it such tiles fail."),
        .init(name: "drop-empty", placeholder: nil, help: "Leave out fully transparent raster tiles (counted in the\nsummary)."),
    ]

    static func read(_ given: [String: String], into settings: inout TileTransformSettings) throws(TileTransformSettings.ValueError) {
        guard commandLineOptions.contains(where: { given[$0.name] != nil }) else { return }
        let formats: [String: TileFormat] = ["webp": .webp, "png": .png, "jpeg": .jpeg]
        var encoding = RasterReencoder.Encoding(format: nil)
        if let text = given["tile-format"] {
            guard let format = formats[text] else { throw TileTransformSettings.ValueError("--tile-format must be webp, png or jpeg, not '\(text)'") }
            encoding.format = format
        }
        if let text = given["quality"] {
            guard let quality = Int(text), (0...100).contains(quality) else {
                throw TileTransformSettings.ValueError("'--quality' must be a whole number in 0...100, not '\(text)'")
            }
            encoding.quality = quality
        }
        encoding.lossless = given["lossless"] != nil
        encoding.dropEmpty = given["drop-empty"] != nil
        if let text = given["background"] {
            guard let color = RasterReencoder.Color(parsing: text) else {
                throw TileTransformSettings.ValueError("--background must be #rrggbb, #rgb, white or black, not '\(text)'")
            }
            encoding.background = color
        }
        if encoding.format == nil, !encoding.dropEmpty {
            throw TileTransformSettings.ValueError("--quality, --lossless and --background go with --tile-format")
        }
        do {
            try encoding.validate(store: "")
        } catch {
            throw TileTransformSettings.ValueError(error.message)
        }
        settings.rasterEncoding = encoding
    }

    static func make(_ settings: TileTransformSettings, _ reader: any TileReader) throws -> (any TileTransform)? {
        guard let encoding = settings.rasterEncoding else { return nil }
        return RasterReencodingTransform(reencoder: try RasterReencoder(encoding: encoding, store: reader.location.address))
    }

    var identity: String { "raster \(reencoder.encoding.settingsDescription)" }
    var isHeavy: Bool { true }

    func apply(_ tile: Tile, codecs: TileRecompressor.Codecs) throws(TileStoreError) -> TileTransformOutcome {
        let format = SniffedTileFormat(sniffing: tile.data.prefix(16)).format
        guard [.png, .jpeg, .webp, .gif].contains(format) || reencoder.encoding.format != nil else { return .unchanged(nil) }
        switch try reencoder.reencode(tile) {
        case .reencoded(let data): return .rewritten(Tile(coordinate: tile.coordinate, data: data, modificationTime: tile.modificationTime))
        case .kept(let smaller): return .unchanged(.rasterKept(smaller: smaller))
        case .dropped: return .dropped(.emptyRaster)
        }
    }

    func adjust(_ metadata: inout TileMetadata) {
        if let format = reencoder.encoding.format { metadata["format"] = format.rawValue }
    }
}
