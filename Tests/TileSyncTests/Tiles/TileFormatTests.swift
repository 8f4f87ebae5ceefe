import Foundation
import Testing
@testable import TileSync

@Suite("Tile format sniffing")
struct TileFormatTests {
    @Test("Magic bytes", arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], "png"),
        ([0xFF, 0xD8, 0xFF, 0xE0], "jpg"),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "webp"),
        (Array("GIF89a".utf8), "gif"),
        ([0x1F, 0x8B, 0x08, 0x00], "pbf (gzip)"),
        ([0x78, 0x9C, 0x01], "pbf (zlib)"),
        ([0x1A, 0x05, 0x0A], "pbf"),
        (Array("  {\"foo\":1}".utf8), "json"),
        ([0xFF, 0xFF, 0xFF, 0xFF], "unknown"),
        ([], "unknown"),
    ] as [([UInt8], String)])
    func sniff(bytes: [UInt8], expected: String) {
        #expect(SniffedTileFormat(sniffing: bytes).description == expected)
        // As `Data` (contiguous, sliced) and as a collection without contiguous storage.
        let padded = Data([0xEE] + bytes + Array(repeating: 0x20, count: 20))
        #expect(SniffedTileFormat(sniffing: padded.dropFirst().prefix(bytes.count)).description == expected)
        #expect(SniffedTileFormat(sniffing: bytes.lazy.map { $0 }).description == expected)
    }

    @Test("Declared names and media types")
    func declared() {
        #expect(TileFormat(declared: "JPEG") == .jpeg)
        #expect(TileFormat(declared: "application/vnd.mapbox-vector-tile") == .pbf)
        #expect(TileFormat(declared: "mvt")?.fileExtension == "pbf")
        #expect(TileFormat(declared: "tiff") == nil)
    }
}
