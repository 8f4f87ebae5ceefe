#if canImport(CTileSyncWebP)
import CTileSyncWebP
import Foundation

/// WebP through libwebp: still images (lossy or lossless, with or without alpha) decoded to
/// RGBA; encoding with cwebp's defaults (method 4), lossy at a quality or lossless with the RGB
/// under transparent pixels kept (`exact`), so that lossless means every RGBA byte.
enum WebPCodec {
    /// - Throws: `RasterReencoder.CodecError` for bytes that are not a whole still WebP, or too many pixels.
    static func decode(_ data: Data, pixelLimit: Int) throws(RasterReencoder.CodecError) -> RasterReencoder.Image {
        let decoded = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Result<RasterReencoder.Image, RasterReencoder.CodecError> in
            guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                return .failure(RasterReencoder.CodecError(.invalid, "is empty"))
            }
            return Result { () throws(RasterReencoder.CodecError) -> RasterReencoder.Image in try decode(start, count: bytes.count, pixelLimit: pixelLimit) }
        }
        return try decoded.get()
    }

    private static func decode(_ start: UnsafePointer<UInt8>, count: Int, pixelLimit: Int) throws(RasterReencoder.CodecError) -> RasterReencoder.Image {
        let bytes = UnsafeRawBufferPointer(start: start, count: count)
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(start, bytes.count, &features)
        guard status == VP8_STATUS_OK else {
            throw RasterReencoder.CodecError(.invalid, status == VP8_STATUS_NOT_ENOUGH_DATA ? "the data ends early (truncated WebP)" : "is not a valid WebP")
        }
        guard features.has_animation == 0 else { throw RasterReencoder.CodecError(.unsupported, "is an animated WebP") }
        let width = Int(features.width), height = Int(features.height)
        guard width > 0, height > 0 else { throw RasterReencoder.CodecError(.invalid, "is an empty image (\(width)x\(height) pixels)") }
        guard width * height <= pixelLimit else {
            throw RasterReencoder.CodecError(.tooLarge, "is \(width)x\(height) pixels, more than the limit of \(pixelLimit) pixels")
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let decoded = rgba.withUnsafeMutableBufferPointer { output in
            WebPDecodeRGBAInto(start, bytes.count, output.baseAddress, output.count, Int32(width * 4)) != nil
        }
        guard decoded else { throw RasterReencoder.CodecError(.invalid, "is a damaged or truncated WebP") }
        return RasterReencoder.Image(width: width, height: height, rgba: rgba)
    }

    /// The image as a WebP: lossless (`quality` is then the effort, as in cwebp) or lossy.
    /// - Throws: `RasterReencoder.CodecError` when libwebp refuses (out of memory, over 16383 pixels).
    static func encode(_ image: RasterReencoder.Image, quality: Int, lossless: Bool) throws(RasterReencoder.CodecError) -> [UInt8] {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw RasterReencoder.CodecError(.invalid, "libwebp version mismatch") }
        config.quality = Float(quality)
        config.method = 4
        config.lossless = lossless ? 1 : 0
        config.exact = lossless ? 1 : 0
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw RasterReencoder.CodecError(.invalid, "libwebp version mismatch") }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = lossless ? 1 : 0
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        let opaque = image.isOpaque
        let imported = image.rgba.withUnsafeBufferPointer { pixels in
            opaque ? WebPPictureImportRGBX(&picture, pixels.baseAddress, Int32(image.width * 4))
                : WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(image.width * 4))
        }
        guard imported != 0 else { throw RasterReencoder.CodecError(.invalid, "could not be handed to libwebp (out of memory)") }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem else {
            throw RasterReencoder.CodecError(.invalid, "could not be encoded as WebP (libwebp error \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: memory, count: writer.size))
    }
}
#endif
