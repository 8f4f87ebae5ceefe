#if canImport(CTileSyncRasterShims)
import CTileSyncRasterShims
import Foundation

/// PNG through libpng: any PNG decoded to RGBA; images encoded in the smallest colour layout
/// (`PNGColorLayout`) at zlib level 9, trying filter and zlib strategy settings and keeping the
/// smallest, as optipng's trials do: palettes and low bit depths unfiltered with zlib's default
/// and run-length strategies; 8-bit grey and true colour also with adaptive filters and the
/// filtered strategy (line art compresses best unfiltered, photographs filtered).
enum PNGCodec {
    /// - Throws: `RasterReencoder.CodecError` for bytes that are not a whole PNG, or too many pixels.
    static func decode(_ data: Data, pixelLimit: Int) throws(RasterReencoder.CodecError) -> RasterReencoder.Image {
        try RasterShim.image(decoding: data) { tilesync_png_decode($0, $1, UInt64(pixelLimit), $2, $3, $4) }
    }

    /// The image as a PNG that decodes to exactly its pixels.
    /// - Throws: `RasterReencoder.CodecError` when libpng fails (out of memory).
    static func encode(_ image: RasterReencoder.Image) throws(RasterReencoder.CodecError) -> [UInt8] {
        let layout = PNGColorLayout.choose(for: image)
        let rows = layout.pack(image)
        var palette: [UInt8] = [], alphas: [UInt8] = []
        for color in layout.palette {
            palette += [UInt8(color >> 24), UInt8((color >> 16) & 0xFF), UInt8((color >> 8) & 0xFF)]
            if color & 0xFF != 0xFF { alphas.append(UInt8(color & 0xFF)) }
        }
        let unfiltered = Int32(TILESYNC_PNG_FILTER_NONE), adaptive = Int32(TILESYNC_PNG_FILTER_ADAPTIVE)
        let zlibDefault: Int32 = 0, zlibFiltered: Int32 = 1, zlibRunLength: Int32 = 3
        let packed = layout.colorType == .palette || layout.bitDepth < 8
        let trials: [(filters: Int32, strategy: Int32)] = packed
            ? [(unfiltered, zlibDefault), (unfiltered, zlibRunLength)]
            : [(adaptive, zlibDefault), (unfiltered, zlibDefault), (unfiltered, zlibFiltered), (unfiltered, zlibRunLength)]
        var smallest: [UInt8]?
        for trial in trials {
            let bytes = try encode(image, layout: layout, rows: rows, palette: palette, alphas: alphas,
                                   filters: trial.filters, strategy: trial.strategy)
            if smallest.map({ bytes.count < $0.count }) ?? true { smallest = bytes }
        }
        return smallest ?? []
    }

    /// The image as a map renderer writes a PNG: 8-bit RGB (RGBA when not opaque), zlib level 6,
    /// adaptive filters, one pass.
    static func encodeAsRendered(_ image: RasterReencoder.Image) throws(RasterReencoder.CodecError) -> [UInt8] {
        let layout = PNGColorLayout(colorType: image.isOpaque ? .rgb : .rgba, bitDepth: 8, palette: [])
        return try encode(image, layout: layout, rows: layout.pack(image), palette: [], alphas: [],
                          filters: Int32(TILESYNC_PNG_FILTER_ADAPTIVE), strategy: 0, level: 6)
    }

    private static func encode(_ image: RasterReencoder.Image, layout: PNGColorLayout, rows: [UInt8], palette: [UInt8], alphas: [UInt8],
                               filters: Int32, strategy: Int32, level: Int32 = 9) throws(RasterReencoder.CodecError) -> [UInt8] {
        try rows.withUnsafeBufferPointer { (packed: UnsafeBufferPointer<UInt8>) throws(RasterReencoder.CodecError) -> [UInt8] in
            try palette.withUnsafeBufferPointer { (paletteBytes: UnsafeBufferPointer<UInt8>) throws(RasterReencoder.CodecError) -> [UInt8] in
                try alphas.withUnsafeBufferPointer { (alphaBytes: UnsafeBufferPointer<UInt8>) throws(RasterReencoder.CodecError) -> [UInt8] in
                    var settings = tilesync_png_settings(
                        width: UInt32(image.width), height: UInt32(image.height), color_type: layout.colorType.rawValue,
                        bit_depth: Int32(layout.bitDepth), row_bytes: layout.rowBytes(width: image.width),
                        palette: paletteBytes.baseAddress, palette_count: Int32(layout.palette.count),
                        palette_alpha: alphaBytes.baseAddress, alpha_count: Int32(alphas.count),
                        compression_level: level, filters: filters, strategy: strategy)
                    guard let start = packed.baseAddress else { throw RasterReencoder.CodecError(.invalid, "is an empty image") }
                    return try RasterShim.bytes { tilesync_png_encode(start, &settings, $0, $1, $2) }
                }
            }
        }
    }
}
#endif
