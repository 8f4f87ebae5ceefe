#if canImport(CTileSyncRasterShims)
import CTileSyncRasterShims
import Foundation

/// JPEG through libjpeg-turbo: baseline and progressive JPEGs decoded to RGBA (alpha 255);
/// encoding as cjpeg does by default (4:2:0, optimized Huffman tables) at a given quality.
enum JPEGCodec {
    /// - Throws: `RasterReencoder.CodecError` for bytes that are not a whole JPEG (libjpeg's warnings about
    ///   corrupt or truncated data count as errors), a CMYK JPEG, or too many pixels.
    static func decode(_ data: Data, pixelLimit: Int) throws(RasterReencoder.CodecError) -> RasterReencoder.Image {
        try RasterShim.image(decoding: data) { tilesync_jpeg_decode($0, $1, UInt64(pixelLimit), $2, $3, $4) }
    }

    /// RGB pixels (`width * 3` bytes a row) as a JPEG of `quality` 0-100.
    static func encode(rgb: [UInt8], width: Int, height: Int, quality: Int) throws(RasterReencoder.CodecError) -> [UInt8] {
        try rgb.withUnsafeBufferPointer { (pixels: UnsafeBufferPointer<UInt8>) throws(RasterReencoder.CodecError) -> [UInt8] in
            guard let start = pixels.baseAddress else { throw RasterReencoder.CodecError(.invalid, "is an empty image") }
            return try RasterShim.bytes {
                tilesync_jpeg_encode(start, UInt32(width), UInt32(height), Int32(quality), $0, $1, $2)
            }
        }
    }
}
#endif
