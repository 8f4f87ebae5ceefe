import TileSync

/// `--tile-format`, `--quality`, `--lossless`, `--background` and `--drop-empty` of `convert`
/// and `sync`: how raster tiles are re-encoded on the way.
enum RasterOptions {
    /// The formats `--tile-format` takes.
    enum Target: String, CaseIterable {
        case webp, png, jpeg

        var format: TileFormat {
            switch self {
            case .webp: .webp
            case .png: .png
            case .jpeg: .jpeg
            }
        }
    }

    static let tileFormat = OptionDefinition.value("tile-format", "webp|png|jpeg",
                                                   help: "Re-encode raster tiles (PNG, JPEG, WebP) into this format, on\nevery core; png is written in its smallest colour layout at\nzlib level 9. A tile that comes out larger in its own format\nkeeps its bytes.")
    static let quality = OptionDefinition.value("quality", "0-100",
                                                help: "Quality of lossy WebP and JPEG, effort of lossless WebP\n(default 75, as cwebp and cjpeg).")
    static let lossless = OptionDefinition.flag("lossless", help: "Lossless WebP: every pixel kept exactly (with --tile-format webp).")
    static let background = OptionDefinition.value("background", "COLOR",
                                                   help: "Flatten transparent pixels onto this colour (#rrggbb, white,\nblack) for --tile-format jpeg; without it such tiles fail.")
    static let dropEmpty = OptionDefinition.flag("drop-empty", help: "Leave out fully transparent raster tiles (counted in the\nsummary).")

    static let definitions = [tileFormat, quality, lossless, background, dropEmpty]

    /// The encoding asked for, nil when no option of the group is given.
    /// - Throws: `UsageError` for values out of range or options that contradict each other.
    static func encoding(_ arguments: ParsedArguments) throws(UsageError) -> RasterReencoder.Encoding? {
        guard definitions.contains(where: arguments.isGiven) else { return nil }
        var encoding = RasterReencoder.Encoding(format: try arguments.choice(tileFormat, as: Target.self)?.format)
        encoding.quality = try arguments.integer(quality, in: 0...100) ?? encoding.quality
        encoding.lossless = arguments.flag(lossless)
        encoding.dropEmpty = arguments.flag(dropEmpty)
        if let text = arguments.value(background) {
            guard let color = RasterReencoder.Color(parsing: text) else {
                throw UsageError("--background must be #rrggbb, #rgb, white or black, not '\(text)'", spec: arguments.spec)
            }
            encoding.background = color
        }
        if encoding.format == nil, !encoding.dropEmpty {
            throw UsageError("--quality, --lossless and --background go with --tile-format", spec: arguments.spec)
        }
        do {
            try encoding.validate(store: "")
        } catch {
            throw UsageError(error.message, spec: arguments.spec)
        }
        return encoding
    }
}
