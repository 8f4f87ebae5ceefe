extension PMTilesHeader {
    /// The compression enum of the PMTiles header, for directories and metadata (internal) and for
    /// tiles.
    public enum Compression: UInt8, Sendable, CustomStringConvertible {
        case unknown = 0
        case none = 1
        case gzip = 2
        case brotli = 3
        case zstd = 4

        public var description: String {
            switch self {
            case .unknown: "unknown"
            case .none: "none"
            case .gzip: "gzip"
            case .brotli: "brotli"
            case .zstd: "zstd"
            }
        }

        /// The header value for tiles of this outer compression (zlib has none: unknown).
        init(_ compression: TileCompression) {
            switch compression {
            case .none: self = .none
            case .gzip: self = .gzip
            case .zlib: self = .unknown
            case .zstd: self = .zstd
            case .brotli: self = .brotli
            }
        }

        /// Undoes this compression on directory or metadata bytes.
        /// - Parameter limit: the most bytes the result may have.
        /// - Throws: `PMTilesFormatError` naming `part` when the bytes do not decode, are too large,
        ///   or use a compression this build cannot read (brotli and zstd need their system library).
        func decompress(_ bytes: [UInt8], limit: Int, part: String) throws(PMTilesFormatError) -> [UInt8] {
            do {
                switch self {
                case .none:
                    guard bytes.count <= limit else { throw CompressionError.tooLarge(limit) }
                    return bytes
                case .gzip:
                    return try GzipCodec.decompress(bytes, limit: limit)
                case .zstd:
                    #if canImport(CTileSyncZstd)
                    return try ZstdCodec.decompress(bytes, limit: limit)
                    #else
                    throw PMTilesFormatError(part, "unsupported compression zstd (no libzstd on this platform)")
                    #endif
                case .brotli:
                    #if canImport(CTileSyncBrotli)
                    return try BrotliCodec.decompress(bytes, limit: limit)
                    #else
                    throw PMTilesFormatError(part, "unsupported compression brotli (no libbrotli on this platform)")
                    #endif
                case .unknown:
                    throw PMTilesFormatError(part, "unsupported compression: the header says it is unknown")
                }
            } catch let error as CompressionError {
                throw PMTilesFormatError(part, error.message)
            } catch let error as PMTilesFormatError {
                throw error
            } catch {
                throw PMTilesFormatError(part, "\(error)")
            }
        }
    }
}
