#if canImport(CTileSyncWebP)
import CTileSyncWebP
#endif
#if canImport(CTileSyncRasterShims)
import CTileSyncRasterShims
#endif
public import Foundation

/// Re-encodes one raster tile as `RasterReencoder.Encoding` says: decodes its PNG, JPEG or WebP bytes to
/// RGBA (refusing more than `pixelLimit` pixels), drops it when fully transparent and asked to,
/// and encodes it in the target format. A tile whose re-encoding is larger than its bytes in the
/// same format keeps its bytes; a 16-bit PNG stays as it is when PNG is the target (its samples
/// would lose precision). Available where the build has libwebp, libpng and libjpeg (Linux,
/// macOS); elsewhere `isAvailable` is false and every tile fails.
public struct RasterReencoder: Sendable {
    /// What a tile became.
    public enum Outcome: Sendable, Equatable {
        /// New bytes.
        case reencoded(Data)
        /// The tile's own bytes are what is written.
        case kept(smaller: Bool)
        /// Fully transparent: not written.
        case dropped
    }

    public let encoding: RasterReencoder.Encoding
    private let store: String

    /// True in builds with the raster codecs (the `RasterCodecs` trait, Linux and macOS).
    public static var isAvailable: Bool {
        #if canImport(CTileSyncWebP) && canImport(CTileSyncRasterShims)
        true
        #else
        false
        #endif
    }

    /// - Parameter store: the source, for messages.
    /// - Throws: `TileStoreError` `.invalidOptions` for contradicting settings, `.unsupported` in a
    ///   build without the codecs.
    public init(encoding: RasterReencoder.Encoding, store: String) throws(TileStoreError) {
        try encoding.validate(store: store)
        guard Self.isAvailable else {
            throw TileStoreError(.unsupported, store: store,
                                 message: "this build cannot re-encode raster tiles (built without libwebp, libpng and libjpeg)")
        }
        self.encoding = encoding
        self.store = store
    }

    /// One tile re-encoded.
    /// - Throws: `TileStoreError` `.invalidTile` naming the tile when its bytes are not a valid
    ///   PNG, JPEG or WebP, have too many pixels, or cannot go into the target (transparency into
    ///   JPEG without a background).
    public func reencode(_ tile: Tile) throws(TileStoreError) -> Outcome {
        do throws(RasterReencoder.CodecError) {
            return try reencode(tile.data)
        } catch {
            throw TileStoreError(.invalidTile, store: store, item: "tile \(tile.coordinate)", message: error.message,
                                 hint: error.kind == .unsupported && encoding.format == .jpeg && encoding.background == nil
                                    ? "pass --background COLOR (e.g. white) to flatten transparent pixels" : nil)
        }
    }

    private func reencode(_ data: Data) throws(RasterReencoder.CodecError) -> Outcome {
        let source = SniffedTileFormat(sniffing: data).format
        let image = try Self.decode(data, as: source, pixelLimit: encoding.pixelLimit)
        if encoding.dropEmpty, image.isFullyTransparent { return .dropped }
        guard let target = encoding.format else { return .kept(smaller: false) }
        if target == .png, image.reducedPrecision { return .kept(smaller: false) }
        let bytes = try encode(image, as: target)
        if target == source, bytes.count >= data.count { return .kept(smaller: true) }
        return .reencoded(Data(bytes))
    }

    /// The pixels of PNG, JPEG or WebP bytes.
    /// - Throws: `RasterReencoder.CodecError` for other formats, invalid bytes or too many pixels.
    public static func decode(_ data: Data, pixelLimit: Int = RasterReencoder.Encoding().pixelLimit) throws(RasterReencoder.CodecError) -> RasterReencoder.Image {
        try decode(data, as: SniffedTileFormat(sniffing: data).format, pixelLimit: pixelLimit)
    }

    /// The image as a map renderer writes a PNG (8-bit RGB or RGBA, zlib level 6, adaptive
    /// filters): what tile servers usually hold, for generating test and benchmark tiles.
    /// - Throws: `RasterReencoder.CodecError` in a build without the codecs, or when libpng fails.
    public static func renderedPNG(_ image: RasterReencoder.Image) throws(RasterReencoder.CodecError) -> Data {
        #if canImport(CTileSyncWebP) && canImport(CTileSyncRasterShims)
        return Data(try PNGCodec.encodeAsRendered(image))
        #else
        throw RasterReencoder.CodecError(.unsupported, "cannot be encoded: this build has no raster codecs")
        #endif
    }

    private static func decode(_ data: Data, as format: TileFormat, pixelLimit: Int) throws(RasterReencoder.CodecError) -> RasterReencoder.Image {
        do throws(RasterReencoder.CodecError) {
            switch format {
            #if canImport(CTileSyncWebP) && canImport(CTileSyncRasterShims)
            case .png: return try PNGCodec.decode(data, pixelLimit: pixelLimit)
            case .jpeg: return try JPEGCodec.decode(data, pixelLimit: pixelLimit)
            case .webp: return try WebPCodec.decode(data, pixelLimit: pixelLimit)
            #endif
            case .gif: throw RasterReencoder.CodecError(.unsupported, "is a GIF, which TileSync does not decode (PNG, JPEG and WebP only)")
            case .pbf, .json: throw RasterReencoder.CodecError(.unsupported, "is a \(format == .pbf ? "vector" : "JSON") tile, not a raster image (re-encoding applies to PNG, JPEG and WebP)")
            default: throw RasterReencoder.CodecError(.invalid, isAvailable ? "is not a PNG, JPEG or WebP image" : "cannot be decoded: this build has no raster codecs")
            }
        } catch {
            let name = format == .jpeg ? "JPEG" : format == .webp ? "WebP" : "PNG"
            guard [.png, .jpeg, .webp].contains(format) else { throw error }
            let text = error.message.hasPrefix("is ") ? "it " + error.message : error.message
            throw RasterReencoder.CodecError(error.kind, "cannot be decoded as \(name): \(text)")
        }
    }

    private func encode(_ image: RasterReencoder.Image, as target: TileFormat) throws(RasterReencoder.CodecError) -> [UInt8] {
        #if canImport(CTileSyncWebP) && canImport(CTileSyncRasterShims)
        switch target {
        case .webp: return try WebPCodec.encode(image, quality: encoding.quality, lossless: encoding.lossless)
        case .png: return try PNGCodec.encode(image)
        default:
            let opaque = image.isOpaque
            guard opaque || encoding.background != nil else {
                throw RasterReencoder.CodecError(.unsupported, "has transparent pixels, which JPEG cannot hold")
            }
            let rgb = image.rgb(over: encoding.background ?? RasterReencoder.Color(red: 255, green: 255, blue: 255))
            return try JPEGCodec.encode(rgb: rgb, width: image.width, height: image.height, quality: encoding.quality)
        }
        #else
        throw RasterReencoder.CodecError(.unsupported, "cannot be encoded: this build has no raster codecs")
        #endif
    }
}
