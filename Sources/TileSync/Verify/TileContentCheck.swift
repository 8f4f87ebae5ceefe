import Foundation

/// `verify --deep`: decodes each tile's content. Vector tiles (after their gzip, zlib, zstd or
/// declared brotli compression) through `VectorTile.problems(in:)`; JSON tiles through the JSON
/// parser; PNG, JPEG and WebP tiles through a full decode of their pixels. GIF tiles and
/// content of no known format are not decoded (the format check already names the latter), nor
/// are images in a build without the raster codecs (`verify` notes it).
struct TileContentCheck: Sendable {
    /// The compression the store declares for its tiles (brotli has no magic bytes).
    let declared: TileCompression?

    /// What is wrong with one tile's content, one message each; empty when it decodes.
    /// - Parameter codecs: decoders kept between tiles on the calling thread.
    func problems(of tile: Tile, codecs: TileRecompressor.Codecs) -> [String] {
        let sniffed = SniffedTileFormat(sniffing: tile.data.prefix(16))
        switch sniffed.format {
        case .png, .jpeg, .webp:
            guard RasterReencoder.isAvailable else { return [] }
            do throws(RasterReencoder.CodecError) {
                _ = try RasterReencoder.decode(tile.data)
                return []
            } catch {
                return ["the \(sniffed.format.rawValue) image does not decode: \(error)"]
            }
        case .gif:
            return []
        case .pbf, .json, .unknown:
            let compression: TileCompression = sniffed.format == .unknown && declared == .brotli ? .brotli : sniffed.compression
            guard sniffed.format != .unknown || compression == .brotli else { return [] }
            let raw: [UInt8]
            do throws(CompressionError) {
                raw = try codecs.decoded(tile.data, compression)
            } catch {
                return ["the \(compression.rawValue) stream does not decode: \(error.description)"]
            }
            if let first = raw.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                do throws(JSONError) {
                    _ = try JSONParser.parse(Data(raw))
                    return []
                } catch {
                    return ["the JSON does not parse: \(error.description)"]
                }
            }
            return VectorTile.problems(in: Data(raw)).map { "vector tile: \($0.description)" }
        }
    }
}
