import Foundation

/// The check that the sources of a merge hold tiles of one encoding: one format (png, jpg,
/// webp, vector, ...), unless raster tiles are re-encoded on the way (`--tile-format`), and,
/// unless the tiles are recompressed on the way (`--compress`), one compression. Each source is judged by its first tile, with what it declares (the metadata's
/// `format`, a PMTiles header's compression).
enum MergedEncodings {
    /// - Throws: `TileStoreError` `.invalidOptions` naming the first source that differs from
    ///   an earlier one, and both encodings.
    static func check(_ sources: MergedSources, compressionsMayDiffer: Bool, rasterFormatsMayDiffer: Bool = false) throws {
        var seen: (encoding: SniffedTileFormat, store: String)?
        for (first, location) in zip(sources.firstEncodings, sources.locations) {
            guard let encoding = first else { continue }
            defer { if seen == nil { seen = (encoding, location.address) } }
            guard let seen else { continue }
            if encoding.format != seen.encoding.format, !(rasterFormatsMayDiffer && bothRaster(encoding.format, seen.encoding.format)) {
                throw TileStoreError(.invalidOptions, store: location.address, item: "tile format",
                                     message: "holds \(encoding) tiles, but \(seen.store) holds \(seen.encoding): a merge needs one tile format",
                                     hint: formatHint(encoding.format, seen.encoding.format))
            }
            if encoding.compression != seen.encoding.compression, !compressionsMayDiffer {
                throw TileStoreError(.invalidOptions, store: location.address, item: "tile compression",
                                     message: "holds \(described(encoding)), but \(seen.store) holds \(described(seen.encoding)): a merge needs one tile compression",
                                     hint: "--compress gzip (or zstd, brotli, none) re-encodes every source's tiles into one")
            }
        }
    }

    /// True when both formats are raster formats TileSync re-encodes (PNG, JPEG, WebP).
    static func bothRaster(_ a: TileFormat, _ b: TileFormat) -> Bool {
        let raster: Set<TileFormat> = [.png, .jpeg, .webp]
        return raster.contains(a) && raster.contains(b)
    }

    /// What to do about two formats in one merge.
    static func formatHint(_ a: TileFormat, _ b: TileFormat) -> String {
        bothRaster(a, b) ? "--tile-format webp (or png, jpeg) re-encodes every source's raster tiles into one"
            : "convert the sources to one format first"
    }

    private static func described(_ encoding: SniffedTileFormat) -> String {
        "\(encoding.format) tiles " + (encoding.compression == .none ? "without compression" : "compressed with \(encoding.compression.rawValue)")
    }

    /// The encoding of a source's first tile, nil when it holds none or the tile cannot be read
    /// (the merge itself then reports it).
    static func firstEncoding(of reader: any TileReader, metadata: TileMetadata) throws -> SniffedTileFormat? {
        guard let first = try? reader.tiles(matching: .all).next() else { return nil }
        let declaredFormat = metadata["format"].flatMap(TileFormat.init(declared:))
        return SniffedTileFormat(sniffing: first.data, declaredCompression: try reader.declaredTileCompression(),
                                 declaredFormat: declaredFormat)
    }
}
