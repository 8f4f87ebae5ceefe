import Foundation
import Testing
@testable import TileSync

@Suite("Image sizes from headers: PNG, JPEG, WebP (lossy and lossless), GIF; cut-short and foreign bytes give none")
struct ImageHeaderSizeTests {
    static let image = RasterReencoder.Image(width: 300, height: 200, rgba: [UInt8](repeating: 90, count: 300 * 200 * 4))

    @Test("Encoded images report the size they were made with")
    func encoded() throws {
        let png = try PNGCodec.encode(Self.image)
        #expect(ImageHeaderSize.of(png).map { [$0.width, $0.height] } == [300, 200])
        let jpeg = try JPEGCodec.encode(rgb: [UInt8](repeating: 90, count: 300 * 200 * 3), width: 300, height: 200, quality: 80)
        #expect(ImageHeaderSize.of(jpeg).map { [$0.width, $0.height] } == [300, 200])
        let lossy = try WebPCodec.encode(Self.image, quality: 80, lossless: false)
        #expect(ImageHeaderSize.of(lossy).map { [$0.width, $0.height] } == [300, 200])
        let lossless = try WebPCodec.encode(Self.image, quality: 80, lossless: true)
        #expect(ImageHeaderSize.of(lossless).map { [$0.width, $0.height] } == [300, 200])
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x00, 0x02, 0x00, 0x01]
        #expect(ImageHeaderSize.of(gif).map { [$0.width, $0.height] } == [512, 256])
    }

    @Test("Cut short, foreign or hostile bytes give nil, without reading past the end")
    func refused() throws {
        let png = try PNGCodec.encode(Self.image)
        #expect(ImageHeaderSize.of(Array(png.prefix(20))) == nil)
        #expect(ImageHeaderSize.of([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF]) == nil)
        #expect(ImageHeaderSize.of([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 64)) == nil)
        #expect(ImageHeaderSize.of(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8X".utf8)) == nil)
        #expect(ImageHeaderSize.of([0x1A, 0x02, 0x0A, 0x00]) == nil)
        #expect(ImageHeaderSize.of([]) == nil)
    }
}
