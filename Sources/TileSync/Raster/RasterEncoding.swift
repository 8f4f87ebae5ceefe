extension RasterReencoder {
    /// How raster tiles are re-encoded on the way to a destination (`--tile-format`, `--quality`,
    /// `--lossless`, `--background`, `--drop-empty`). See `RasterReencoder`.
    public struct Encoding: Sendable, Hashable {
        /// The format tiles are written in: `.png`, `.jpeg` or `.webp`; nil keeps each tile's format
        /// (with `dropEmpty`, tiles are then only checked for emptiness).
        public var format: TileFormat?
        /// 0-100: the quality of lossy WebP and JPEG, the effort of lossless WebP (cwebp's `-q`).
        public var quality = 75
        /// Lossless WebP (every RGBA byte kept, also under transparent pixels).
        public var lossless = false
        /// The colour transparent pixels are flattened onto for JPEG; nil refuses transparent tiles.
        public var background: RasterReencoder.Color?
        /// Fully transparent tiles are not written.
        public var dropEmpty = false
        /// The most pixels a tile may decode to (a guard against decompression bombs); 16,777,216
        /// (4096 x 4096) by default.
        public var pixelLimit = 4096 * 4096

        /// Settings that keep every tile as it is (set `format` or `dropEmpty`).
        public init(format: TileFormat? = nil) {
            self.format = format
        }

        /// The formats tiles can be re-encoded into.
        public static let targetFormats: [TileFormat] = [.webp, .png, .jpeg]

        /// Refuses settings that contradict each other.
        /// - Throws: `TileStoreError` `.invalidOptions` naming the option.
        public func validate(store: String) throws(TileStoreError) {
            func refuse(_ message: String) -> TileStoreError { TileStoreError(.invalidOptions, store: store, message: message) }
            if let format, !Self.targetFormats.contains(format) {
                throw refuse("tiles cannot be re-encoded as \(format); choose webp, png or jpeg")
            }
            guard (0...100).contains(quality) else { throw refuse("--quality must be 0-100, not \(quality)") }
            if lossless, format != .webp { throw refuse("--lossless applies to --tile-format webp") }
            if background != nil, format != .jpeg { throw refuse("--background applies to --tile-format jpeg") }
            guard pixelLimit > 0 else { throw refuse("the pixel limit must be positive") }
        }

        /// The target in words: `webp lossless effort 75`, `jpeg quality 80 background #ffffff`,
        /// `png`, `same format`.
        public var formatDescription: String {
            var words = [format.map { $0 == .jpeg ? "jpeg" : $0.rawValue } ?? "same format"]
            switch format {
            case .webp where lossless: words.append("lossless effort \(quality)")
            case .webp, .jpeg: words.append("quality \(quality)")
            default: break
            }
            if let background { words.append("background \(background)") }
            return words.joined(separator: " ")
        }

        /// Every setting in words (sync memo identities): `formatDescription`, drop-empty and the
        /// pixel limit.
        public var settingsDescription: String {
            formatDescription + (dropEmpty ? ", empty tiles dropped" : "") + ", at most \(pixelLimit) pixels"
        }
    }
}
