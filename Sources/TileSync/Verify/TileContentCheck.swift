import Foundation

/// `verify --deep`: decodes each tile's content. Vector tiles (after their gzip, zlib, zstd or
/// declared brotli compression) through `VectorTile.problems(in:)`; JSON tiles through the JSON
/// parser; PNG, JPEG and WebP tiles through a full decode of their pixels. GIF tiles and
/// content of no known format are not decoded (the format check already names the latter), nor
/// are images in a build without the raster codecs (`verify` notes it). JSON found inside a
/// compressed tile of a store whose metadata says `pbf` is named too: the format check, which
/// sees only the compression's magic bytes, takes such a tile for a vector tile. In such a
/// store, bytes of no known format are decoded as a vector tile (one may begin with an
/// extension field), as the layer filter reads them. MapLibre Tiles (a store whose `format`
/// says so) are decompressed but not decoded.
struct TileContentCheck: Sendable {
    /// The compression the store declares for its tiles (brotli has no magic bytes).
    let declared: TileCompression?
    /// The format the store's metadata declares, if any (MapLibre Tiles: only their compression
    /// is decoded).
    var declaredFormat: TileFormat? = nil

    /// True when bytes of no known format are decoded as a vector tile (the store says `pbf`);
    /// the format check then leaves them to this check.
    var decodesUnknownBytes: Bool { declaredFormat == .pbf }

    /// What is wrong with one tile's content, one message each; empty when it decodes.
    /// - Parameter codecs: decoders kept between tiles on the calling thread.
    func problems(of tile: Tile, codecs: TileRecompressor.Codecs) -> [String] {
        let sniffed = SniffedTileFormat(sniffing: tile.data.prefix(16), declaredCompression: declared, declaredFormat: declaredFormat)
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
        case .pbf, .json, .mlt, .unknown:
            let reading = sniffed.vectorReading(declared: declared)
            if let reading, reading.isGuess, !decodesUnknownBytes { return [] }
            let compression = reading?.compression ?? sniffed.compression
            let raw: [UInt8]
            do throws(CompressionError) {
                raw = try codecs.decoded(tile.data, compression)
            } catch {
                return ["the \(compression.rawValue) stream does not decode: \(error.description)"]
            }
            if sniffed.format == .mlt { return [] }
            if let first = raw.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                var found: [String] = []
                if declaredFormat == .pbf, compression != .none {
                    found.append("is JSON inside its \(compression.rawValue) compression, but the metadata format is pbf")
                }
                do throws(JSONError) {
                    _ = try JSONParser.parse(Data(raw))
                } catch {
                    found.append("the JSON does not parse: \(error.description)")
                }
                return found
            }
            return VectorTile.problems(in: Data(raw)).map { "vector tile: \($0.description)" }
        }
    }
}
