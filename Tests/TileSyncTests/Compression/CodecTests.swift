import Foundation
import Testing
@testable import TileSync

@Suite("Compression codecs: streams other tools wrote, round trips, and refusals with a cap")
struct CodecTests {
    static let text = Array("hello tiles\n".utf8)
    /// `gzip.compress(b"hello tiles\n", mtime=0)` of Python, and `zlib.compress` of the same.
    static let pythonGzip: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 87, 40, 201, 204, 73, 45, 230, 2, 0,
                                      150, 35, 72, 28, 12, 0, 0, 0]
    static let pythonZlib: [UInt8] = [120, 156, 203, 72, 205, 201, 201, 87, 40, 201, 204, 73, 45, 230, 2, 0, 30, 51, 4, 96]

    @Test("gzip and zlib streams written by Python's zlib decode to their text; ours decode back")
    func gzip() throws {
        #expect(try GzipCodec.decompress(Self.pythonGzip, limit: 100) == Self.text)
        #expect(try GzipCodec.decompress(Self.pythonZlib, limit: 100) == Self.text)
        let big = [UInt8]((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7 % 251) })
        for header in [false, true] {
            let packed = try GzipCodec.compress(big, zlibHeader: header)
            #expect(packed.starts(with: header ? [0x78] : [0x1F, 0x8B]))
            #expect(try GzipCodec.decompress(packed, limit: big.count) == big)
        }
    }

    @Test("A stream that decodes past the cap, a truncated one and one with bytes after its end are refused")
    func gzipRefusals() throws {
        let zeros = try GzipCodec.compress([UInt8](repeating: 0, count: 1 << 20))
        let error = try #require(throws: CompressionError.self) { try GzipCodec.decompress(zeros, limit: 1000) }
        #expect(error.message == "decompresses to more than 1000 bytes, TileSync's limit (a decompression bomb?)")
        #expect(throws: CompressionError.self) { try GzipCodec.decompress(Array(Self.pythonGzip.dropLast(6)), limit: 100) }
        #expect(throws: CompressionError.self) { try GzipCodec.decompress(Self.pythonGzip + [1, 2, 3], limit: 100) }
        #expect(throws: CompressionError.self) { try GzipCodec.decompress([1, 2, 3, 4], limit: 100) }
    }

    @Test("One decompressor kept between streams: every stream exact, a trailer that lies about the size, errors that leave it usable")
    func reusedDecompressor() throws {
        let decompressor = try GzipCodec.Decompressor()
        let big = [UInt8]((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 * 7 % 251) })
        // The trailer's size (ISIZE) says 5 and then 4 GiB - 1: the output grows past the first
        // and the second is not trusted beyond what the input could expand to.
        var small = Self.pythonGzip
        small.replaceSubrange(small.count - 4..<small.count, with: [5, 0, 0, 0])
        let shortSized = try #require(throws: CompressionError.self) { try decompressor.decompress(small, limit: 100) }
        #expect(shortSized.message == "damaged gzip stream (incorrect length check)")
        var huge = Self.pythonGzip
        huge.replaceSubrange(huge.count - 4..<huge.count, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let hugeSized = try #require(throws: CompressionError.self) { try decompressor.decompress(huge, limit: 100) }
        #expect(hugeSized.message == "damaged gzip stream (incorrect length check)")
        let streams: [[UInt8]] = [Self.pythonGzip, Self.pythonZlib, try GzipCodec.compress(big), Self.pythonGzip,
                                  try GzipCodec.compress(big, zlibHeader: true), Self.pythonZlib]
        let expected = [Self.text, Self.text, big, Self.text, big, Self.text]
        for (stream, text) in zip(streams, expected) {
            #expect(try decompressor.decompress(stream, limit: big.count) == text)
        }
        let truncated = try #require(throws: CompressionError.self) {
            try decompressor.decompress(Array(Self.pythonGzip.dropLast(6)), limit: 100)
        }
        #expect(truncated.message == "the gzip stream is truncated")
        let trailing = try #require(throws: CompressionError.self) { try decompressor.decompress(Self.pythonGzip + [1, 2, 3], limit: 100) }
        #expect(trailing.message == "bytes after the end of the gzip stream")
        let capped = try #require(throws: CompressionError.self) { try decompressor.decompress(try GzipCodec.compress(big), limit: 1_000_000) }
        #expect(capped.message == "decompresses to more than 1000000 bytes, TileSync's limit (a decompression bomb?)")
        #expect(try decompressor.withDecompressed(Self.pythonGzip, limit: 100) { Array($0) } == Self.text)
        // A zero-length limit: the empty stream decodes, any byte is too many.
        #expect(try decompressor.decompress(try GzipCodec.compress([UInt8]()), limit: 0) == [])
        #expect(throws: CompressionError.self) { try decompressor.decompress(Self.pythonGzip, limit: 0) }
    }

    #if canImport(CTileSyncZstd)
    @Test("zstd: the zstd tool's frame decodes; round trip; the cap holds")
    func zstd() throws {
        let frame: [UInt8] = [40, 181, 47, 253, 4, 88, 97, 0, 0, 104, 101, 108, 108, 111, 32, 116, 105, 108, 101, 115, 10, 244, 141, 194, 28]
        #expect(try ZstdCodec.decompress(frame, limit: 100) == Self.text)
        let big = [UInt8](repeating: 7, count: 500_000)
        #expect(try ZstdCodec.decompress(try ZstdCodec.compress(big), limit: big.count) == big)
        #expect(throws: CompressionError.self) { try ZstdCodec.decompress(try ZstdCodec.compress(big), limit: big.count - 1) }
        #expect(throws: CompressionError.self) { try ZstdCodec.decompress(Array(frame.dropLast(5)), limit: 100) }
    }
    #endif

    #if canImport(CTileSyncBrotli)
    @Test("brotli: round trip of text and of incompressible bytes; the cap and damage are refused")
    func brotli() throws {
        let noise = [UInt8]((0..<50_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        for input in [Self.text, noise] {
            #expect(try BrotliCodec.decompress(try BrotliCodec.compress(input), limit: input.count) == input)
        }
        #expect(throws: CompressionError.self) { try BrotliCodec.decompress(try BrotliCodec.compress(noise), limit: 1000) }
        #expect(throws: CompressionError.self) { try BrotliCodec.decompress([0xFF, 0xFF, 0xFF], limit: 100) }
    }
    #endif
}
