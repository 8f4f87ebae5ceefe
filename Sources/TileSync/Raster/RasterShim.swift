#if canImport(CTileSyncRasterShims)
import CTileSyncRasterShims
import Foundation

/// Calls into the C functions of `CTileSyncRasterShims` (libpng and libjpeg behind setjmp),
/// turning their status and message into a `RasterReencoder.CodecError` and their malloc'd results into
/// Swift arrays.
enum RasterShim {
    private static let messageCapacity = 256

    /// The image a shim decoder (`tilesync_png_decode`, `tilesync_jpeg_decode`) makes of `data`,
    /// called with the bytes, their count, the image to fill and the message buffer.
    static func image(decoding data: Data,
                      _ decode: (UnsafePointer<UInt8>, Int, UnsafeMutablePointer<tilesync_raster_image>, UnsafeMutablePointer<CChar>, Int) -> Int32)
        throws(RasterReencoder.CodecError) -> RasterReencoder.Image {
        let decoded = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Result<RasterReencoder.Image, RasterReencoder.CodecError> in
            guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                return .failure(RasterReencoder.CodecError(.invalid, "is empty"))
            }
            return Result { () throws(RasterReencoder.CodecError) -> RasterReencoder.Image in try image { decode(start, bytes.count, $0, $1, $2) } }
        }
        return try decoded.get()
    }

    /// An image decoded by `decode`, which fills a `tilesync_raster_image`.
    static func image(_ decode: (UnsafeMutablePointer<tilesync_raster_image>, UnsafeMutablePointer<CChar>, Int) -> Int32)
        throws(RasterReencoder.CodecError) -> RasterReencoder.Image {
        var image = tilesync_raster_image()
        let (status, message) = withMessage { decode(&image, $0, $1) }
        try check(status, message)
        guard let pixels = image.rgba else { throw RasterReencoder.CodecError(.invalid, "decoded to nothing") }
        defer { tilesync_raster_free(pixels) }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else { throw RasterReencoder.CodecError(.invalid, "is an empty image (\(width)x\(height) pixels)") }
        let rgba = Array(UnsafeBufferPointer(start: pixels, count: width * height * 4))
        return RasterReencoder.Image(width: width, height: height, rgba: rgba, reducedPrecision: image.reduced_precision != 0)
    }

    /// The bytes `encode` wrote into a `tilesync_raster_buffer`.
    static func bytes(_ encode: (UnsafeMutablePointer<tilesync_raster_buffer>, UnsafeMutablePointer<CChar>, Int) -> Int32)
        throws(RasterReencoder.CodecError) -> [UInt8] {
        var buffer = tilesync_raster_buffer()
        let (status, message) = withMessage { encode(&buffer, $0, $1) }
        try check(status, message)
        guard let bytes = buffer.bytes else { throw RasterReencoder.CodecError(.invalid, "encoded to nothing") }
        defer { tilesync_raster_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: buffer.count))
    }

    private static func withMessage(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (Int32, String) {
        var message = [CChar](repeating: 0, count: messageCapacity)
        let status = message.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { body($0, messageCapacity) } ?? Int32(TILESYNC_RASTER_NO_MEMORY)
        }
        let text = message.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeRawBufferPointer(buffer).prefix { $0 != 0 }, as: UTF8.self)
        }
        return (status, text)
    }

    private static func check(_ status: Int32, _ message: String) throws(RasterReencoder.CodecError) {
        switch Int(status) {
        case Int(TILESYNC_RASTER_OK): return
        case Int(TILESYNC_RASTER_TOO_LARGE): throw RasterReencoder.CodecError(.tooLarge, message)
        default: throw RasterReencoder.CodecError(.invalid, message.isEmpty ? "could not be decoded" : message)
        }
    }
}
#endif
