import Foundation
import Testing
@testable import TileSync

@Suite("Raster re-encoding refuses bad tiles by name: truncated, foreign, empty, too large", .enabled(if: RasterReencoder.isAvailable))
struct RasterBadInputTests {
    static let coordinate = TileCoordinate(unchecked: 3, 2, 1)

    static func failure(_ data: Data, _ encoding: RasterReencoder.Encoding = RasterReencoder.Encoding(format: .webp)) -> TileStoreError? {
        do {
            _ = try RasterReencoder(encoding: encoding, store: "tiles.mbtiles").reencode(Tile(coordinate: coordinate, data: data))
            return nil
        } catch {
            return error
        }
    }

    static var validPNG: Data { get throws { Data(try PNGCodec.encode(RasterSamples.gradient)) } }
    static var validJPEG: Data {
        get throws { Data(try JPEGCodec.encode(rgb: RasterSamples.mapLike.rgb(over: RasterReencoder.Color(red: 0, green: 0, blue: 0)), width: 256, height: 256, quality: 75)) }
    }

    @Test("Each bad tile fails with its coordinate and the decoder's reason", arguments: [
        ("truncated PNG", 0, "cannot be decoded as PNG: "),
        ("PNG signature only", 1, "cannot be decoded as PNG: the data ends early (truncated PNG)"),
        ("not a JPEG", 2, "cannot be decoded as JPEG: "),
        ("truncated JPEG", 3, "cannot be decoded as JPEG: it is damaged: Premature end of JPEG file"),
        ("0x0 PNG", 4, "cannot be decoded as PNG: Invalid IHDR data (Image width is zero in IHDR)"),
        ("huge PNG", 5, "cannot be decoded as PNG: it is 100000x100000 pixels, more than the limit of 16777216 pixels"),
        ("truncated WebP", 6, "cannot be decoded as WebP: "),
        ("GIF", 7, "is a GIF, which TileSync does not decode (PNG, JPEG and WebP only)"),
        ("vector tile", 8, "is a vector tile, not a raster image (re-encoding applies to PNG, JPEG and WebP)"),
    ])
    func badTiles(name: String, index: Int, message: String) throws {
        let png = try Self.validPNG, jpeg = try Self.validJPEG
        let webp = Data(try WebPCodec.encode(RasterSamples.gradient, quality: 75, lossless: false))
        let inputs: [Data] = [
            png.prefix(png.count / 2), png.prefix(8), Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + Data(repeating: 0x41, count: 64),
            jpeg.prefix(jpeg.count / 2), RasterSamples.handMadePNG(width: 0, height: 256),
            RasterSamples.handMadePNG(width: 100_000, height: 100_000), webp.prefix(webp.count / 2),
            Data("GIF89a".utf8) + Data(repeating: 0, count: 20), Data([0x1A, 0x05]) + Data("water".utf8),
        ]
        let error = try #require(Self.failure(inputs[index]), "\(name)")
        #expect(error.kind == .invalidTile)
        #expect(error.item == "tile 3/2/1")
        #expect(error.store == "tiles.mbtiles")
        #expect(error.message.hasPrefix(message), "\(name): \(error.message)")
        if message.hasSuffix(": ") { #expect(error.message.count > message.count, "\(name): a reason follows") }
    }

    @Test("The pixel limit is a setting: a 256x256 tile passes at 65,536 and fails at 65,535")
    func pixelLimit() throws {
        var encoding = RasterReencoder.Encoding(format: .png)
        encoding.pixelLimit = 65_536
        #expect(Self.failure(try Self.validPNG, encoding) == nil)
        encoding.pixelLimit = 65_535
        #expect(Self.failure(try Self.validPNG, encoding)?.message == "cannot be decoded as PNG: it is 256x256 pixels, more than the limit of 65535 pixels")
    }

    @Test("JPEG refuses transparency unless a background is given, with the option in the hint")
    func jpegTransparency() throws {
        let error = try #require(Self.failure(try Self.validPNG, RasterReencoder.Encoding(format: .jpeg)))
        #expect(error.message == "has transparent pixels, which JPEG cannot hold")
        #expect(error.hint == "pass --background COLOR (e.g. white) to flatten transparent pixels")
        var encoding = RasterReencoder.Encoding(format: .jpeg)
        encoding.background = RasterReencoder.Color(red: 255, green: 255, blue: 255)
        #expect(Self.failure(try Self.validPNG, encoding) == nil)
    }

    @Test("Settings that contradict each other are refused before any tile", arguments: [
        (RasterReencoder.Encoding(format: .gif), "tiles cannot be re-encoded as gif; choose webp, png or jpeg"),
        ({ var e = RasterReencoder.Encoding(format: .png); e.lossless = true; return e }(), "--lossless applies to --tile-format webp"),
        ({ var e = RasterReencoder.Encoding(format: .webp); e.background = RasterReencoder.Color(red: 0, green: 0, blue: 0); return e }(), "--background applies to --tile-format jpeg"),
        ({ var e = RasterReencoder.Encoding(format: .jpeg); e.quality = 101; return e }(), "--quality must be 0-100, not 101"),
    ])
    func contradictions(encoding: RasterReencoder.Encoding, message: String) {
        #expect(throws: TileStoreError(.invalidOptions, store: "s", message: message)) {
            try RasterReencoder(encoding: encoding, store: "s")
        }
    }
}
