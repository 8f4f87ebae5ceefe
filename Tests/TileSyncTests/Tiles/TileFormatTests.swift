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

    @Test("Under a declared brotli compression, bytes that look like JSON, MVT or zlib are brotli tiles of the declared format; only an image's magic outweighs it")
    func declaredBrotli() {
        for head: [UInt8] in [[0x7B, 0x22, 0x01], [0x20, 0x5B, 0x00], [0x1A, 0x05], [0x78, 0x9C, 0x01], [0x1F, 0x8B, 0x08], [0x0B, 0x02]] {
            #expect(SniffedTileFormat(sniffing: head, declaredCompression: .brotli, declaredFormat: .pbf) == SniffedTileFormat(.pbf, .brotli), "\(head)")
            #expect(SniffedTileFormat(sniffing: head, declaredCompression: .brotli, declaredFormat: nil) == SniffedTileFormat(.pbf, .brotli), "\(head)")
        }
        #expect(SniffedTileFormat(sniffing: [0x7B, 0x7D], declaredCompression: .brotli, declaredFormat: .json) == SniffedTileFormat(.json, .brotli))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]
        #expect(SniffedTileFormat(sniffing: png, declaredCompression: .brotli, declaredFormat: .pbf) == SniffedTileFormat(.png))
        #expect(SniffedTileFormat(sniffing: [0x7B, 0x7D], declaredCompression: nil, declaredFormat: .pbf) == SniffedTileFormat(.json))
        #expect(SniffedTileFormat(sniffing: [0x1F, 0x8B], declaredCompression: .gzip, declaredFormat: .pbf) == SniffedTileFormat(.pbf, .gzip))
    }
}
