import Foundation
import Testing
@testable import TileSync

@Suite("Raster codecs: libpng, libjpeg-turbo and libwebp through TileSync, exact layouts and pixels", .enabled(if: RasterReencoder.isAvailable))
struct RasterCodecTests {
    @Test("PNG is written in the smallest colour layout that holds the pixels, and decodes to exactly them",
          arguments: [
            ("gradient", UInt8(6), UInt8(8)), ("opaque gradient", 2, 8), ("256 greys", 0, 8), ("four greys", 0, 2),
            ("three colours", 3, 2), ("translucent palette", 3, 8), ("empty", 3, 1),
          ])
    func pngLayouts(name: String, colorType: UInt8, bitDepth: UInt8) throws {
        let image = try #require(RasterSamples.named[name])
        let bytes = try PNGCodec.encode(image)
        let layout = try #require(RasterSamples.pngLayout(bytes))
        #expect(layout.colorType == colorType && layout.bitDepth == bitDepth, "\(name): \(layout)")
        #expect(try PNGCodec.decode(Data(bytes), pixelLimit: 1 << 20).hasSamePixels(as: image), "\(name)")
    }

    @Test("A palette's translucent entries come first, so the tRNS chunk is as short as they are few")
    func paletteOrder() throws {
        let layout = PNGColorLayout.choose(for: RasterSamples.translucentPalette)
        #expect(layout.palette.count == 20)
        #expect(layout.palette.prefix(5).allSatisfy { $0 & 0xFF != 0xFF })
        #expect(layout.palette.dropFirst(5).allSatisfy { $0 & 0xFF == 0xFF })
        let bytes = try PNGCodec.encode(RasterSamples.translucentPalette)
        let trns = try #require(Self.chunk("tRNS", in: bytes))
        #expect(trns == [0, 50, 100, 150, 200])
    }

    @Test("Lossless WebP keeps every RGBA byte, the RGB under fully transparent pixels too",
          arguments: ["gradient", "opaque gradient", "translucent palette", "empty", "map-like"])
    func losslessWebP(name: String) throws {
        let image = try #require(RasterSamples.named[name])
        let bytes = try WebPCodec.encode(image, quality: 75, lossless: true)
        #expect(SniffedTileFormat(sniffing: bytes).format == .webp)
        #expect(try WebPCodec.decode(Data(bytes), pixelLimit: 1 << 20).hasSamePixels(as: image))
    }

    @Test("The gradient has a transparent pixel with colour, which exact lossless WebP keeps")
    func transparentColourKept() {
        #expect(Array(RasterSamples.gradient.rgba[4..<8]) == [1, 0, 1, 0])
    }

    @Test("Lossy WebP and JPEG decode to the same size, close to the source (PSNR over 30 dB for a map-like tile)")
    func lossy() throws {
        let source = RasterSamples.mapLike
        let webp = try WebPCodec.decode(Data(try WebPCodec.encode(source, quality: 75, lossless: false)), pixelLimit: 1 << 20)
        let jpeg = try JPEGCodec.decode(Data(try JPEGCodec.encode(rgb: source.rgb(over: RasterReencoder.Color(red: 0, green: 0, blue: 0)),
                                                                 width: 256, height: 256, quality: 75)), pixelLimit: 1 << 20)
        for decoded in [webp, jpeg] {
            #expect(decoded.width == 256 && decoded.height == 256)
            #expect(decoded.isOpaque)
            #expect(RasterSamples.psnr(source, decoded) > 30)
        }
    }

    @Test("Flattening for JPEG composites each pixel over the background by its alpha")
    func flatten() {
        let image = RasterReencoder.Image(width: 3, height: 1, rgba: [255, 0, 0, 128, 10, 20, 30, 255, 99, 99, 99, 0])
        #expect(image.rgb(over: RasterReencoder.Color(red: 255, green: 255, blue: 255)) == [255, 127, 127, 10, 20, 30, 255, 255, 255])
        #expect(image.rgb(over: RasterReencoder.Color(red: 0, green: 0, blue: 0)) == [128, 0, 0, 10, 20, 30, 0, 0, 0])
    }

    @Test("Background colours: #rrggbb, #rgb, bare hex, white and black; anything else is refused")
    func colours() {
        #expect(RasterReencoder.Color(parsing: "#1a2B3c") == RasterReencoder.Color(red: 0x1A, green: 0x2B, blue: 0x3C))
        #expect(RasterReencoder.Color(parsing: "#fa0") == RasterReencoder.Color(red: 0xFF, green: 0xAA, blue: 0x00))
        #expect(RasterReencoder.Color(parsing: "ffffff")?.description == "#ffffff")
        #expect(RasterReencoder.Color(parsing: "White") == RasterReencoder.Color(red: 255, green: 255, blue: 255))
        #expect(RasterReencoder.Color(parsing: "black") == RasterReencoder.Color(red: 0, green: 0, blue: 0))
        for bad in ["", "#12345", "#gggggg", "red", "#1234567", "0x123456"] { #expect(RasterReencoder.Color(parsing: bad) == nil, "\(bad)") }
    }

    static func chunk(_ type: String, in bytes: [UInt8]) -> [UInt8]? {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == type {
                return Array(bytes[(offset + 8)..<(offset + 8 + length)])
            }
            offset += 12 + length
        }
        return nil
    }
}
