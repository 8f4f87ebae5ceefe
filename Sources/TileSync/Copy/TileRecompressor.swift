import Foundation

/// Re-encodes vector tiles into one compression on the way to a destination (`--compress`):
/// decodes whatever the bytes are (gzip, zlib and zstd by their magic bytes; brotli, which has
/// none, when the source declares it), then encodes as asked: gzip (zlib level 6, no name, time
/// 0, so equal tiles give equal bytes), zstd (level 3), brotli (quality 6) or none. Raster tiles
/// (PNG, JPEG, WebP, GIF) pass unchanged (`TileRewriter` counts them and spreads batches over
/// every core).
struct TileRecompressor: Sendable {
    /// The most bytes a tile may decode to (a guard against decompression bombs).
    static let decodedLimit = 64 << 20

    /// The compression tiles get.
    let target: TileCompression
    /// What the source declares its tiles to be compressed with (PMTiles header, metadata).
    let declared: TileCompression?
    /// The format the source declares: for MapLibre Tiles, bytes of no known compression are
    /// uncompressed MLT.
    let declaredFormat: TileFormat?
    private let store: String

    /// - Parameters:
    ///   - target: `.none`, `.gzip`, `.zstd` or `.brotli` (`.zlib` is written as gzip).
    ///   - declared: the source's declared tile compression, nil when it declares none.
    ///   - declaredFormat: the source's declared `format`, nil when it declares none.
    ///   - store: the source, for messages.
    init(target: TileCompression, declared: TileCompression?, declaredFormat: TileFormat? = nil, store: String) {
        self.target = target
        self.declared = declared
        self.declaredFormat = declaredFormat
        self.store = store
    }

    /// One tile re-encoded, or nil for a raster tile, which is stored as it is.
    /// - Throws: `TileStoreError` `.invalidTile` when the bytes do not decode.
    func recompress(_ tile: Tile) throws(TileStoreError) -> Tile? {
        try recompress(tile, codecs: Codecs())
    }

    /// Codecs kept between tiles on one thread (zlib and zstd set up once).
    final class Codecs {
        private var gzip: GzipCodec.Compressor?
        private var gunzip: GzipCodec.Decompressor?
        #if canImport(CTileSyncZstd)
        private var zstd: ZstdCodec.Compressor?
        #endif

        func encode(_ raw: [UInt8], _ compression: TileCompression) throws(CompressionError) -> [UInt8] {
            switch compression {
            case .none: return raw
            case .gzip, .zlib:
                let compressor: GzipCodec.Compressor
                if let gzip { compressor = gzip } else { compressor = try GzipCodec.Compressor(); gzip = compressor }
                return try compressor.compress(raw)
            case .zstd:
                #if canImport(CTileSyncZstd)
                let compressor: ZstdCodec.Compressor
                if let zstd { compressor = zstd } else { compressor = try ZstdCodec.Compressor(); zstd = compressor }
                return try compressor.compress(raw)
                #else
                throw CompressionError(message: "zstd is not supported in this build (no libzstd)")
                #endif
            case .brotli:
                #if canImport(CTileSyncBrotli)
                return try BrotliCodec.compress(raw)
                #else
                throw CompressionError(message: "brotli is not supported in this build (no libbrotli)")
                #endif
            }
        }

        /// The bytes of `data` decompressed from `compression`, at most `decodedLimit` of them.
        /// - Throws: `CompressionError` when the bytes do not decode.
        func decoded(_ data: Data, _ compression: TileCompression) throws(CompressionError) -> [UInt8] {
            try withDecoded(data, compression) { Array($0) }
        }

        /// Runs `body` with the bytes of `data` decompressed from `compression` (at most
        /// `decodedLimit` of them; valid only inside `body`).
        /// - Throws: `CompressionError` when the bytes do not decode.
        func withDecoded<Result>(_ data: Data, _ compression: TileCompression,
                                 _ body: (UnsafeRawBufferPointer) -> Result) throws(CompressionError) -> Result {
            switch compression {
            case .gzip, .zlib:
                let decompressor: GzipCodec.Decompressor
                if let gunzip { decompressor = gunzip } else { decompressor = try GzipCodec.Decompressor(); gunzip = decompressor }
                return try decompressor.withDecompressed(data, limit: TileRecompressor.decodedLimit, body)
            case .none:
                return data.withUnsafeBytes(body)
            case .zstd:
                #if canImport(CTileSyncZstd)
                return try ZstdCodec.decompress(data, limit: TileRecompressor.decodedLimit).withUnsafeBytes(body)
                #else
                throw CompressionError(message: "zstd is not supported in this build (no libzstd)")
                #endif
            case .brotli:
                #if canImport(CTileSyncBrotli)
                return try BrotliCodec.decompress(data, limit: TileRecompressor.decodedLimit).withUnsafeBytes(body)
                #else
                throw CompressionError(message: "brotli is not supported in this build (no libbrotli)")
                #endif
            }
        }
    }

    func recompress(_ tile: Tile, codecs: Codecs) throws(TileStoreError) -> Tile? {
        let sniffed = SniffedTileFormat(sniffing: tile.data, declaredCompression: declared, declaredFormat: declaredFormat)
        if [.png, .jpeg, .webp, .gif].contains(sniffed.format) { return nil }
        let compression = sniffed.compression
        if compression == target { return tile }
        if sniffed.format == .unknown && compression != .brotli {
            throw TileStoreError(.invalidTile, store: store, item: "tile \(tile.coordinate)",
                                 message: "is neither gzip, zlib, zstd nor an uncompressed vector or JSON tile, so it cannot be recompressed",
                                 hint: declared == nil ? "if the tiles are brotli, say so in the metadata: compression=brotli" : nil)
        }
        do {
            let raw = try codecs.decoded(tile.data, compression)
            return Tile(coordinate: tile.coordinate, data: Data(try codecs.encode(raw, target)), modificationTime: tile.modificationTime)
        } catch {
            throw TileStoreError(.invalidTile, store: store, item: "tile \(tile.coordinate)",
                                 message: "cannot be recompressed from \(compression.rawValue): \(error.description)")
        }
    }
}
