import Foundation
@testable import TileSync

/// Generated images for the raster tests, each with a known smallest PNG layout, and the
/// helpers that compare stores pixel by pixel.
enum RasterSamples {
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> RasterReencoder.Image {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = pixel(x, y)
                rgba += [r, g, b, a]
            }
        }
        return RasterReencoder.Image(width: width, height: height, rgba: rgba)
    }

    /// Many colours and every alpha: only RGBA holds it.
    static let gradient = image(256, 256) { x, y in (UInt8(x), UInt8(y), UInt8(x ^ y), UInt8((x + y) / 2)) }
    /// Many opaque colours: RGB.
    static let opaqueGradient = image(256, 256) { x, y in (UInt8(x), UInt8(y), UInt8((x * y) & 0xFF), 255) }
    /// 256 greys: 8-bit grey.
    static let grey = image(256, 256) { x, y in let v = UInt8((x + 3 * y) & 0xFF); return (v, v, v, 255) }
    /// Four greys that 2 bits hold exactly: 2-bit grey.
    static let fourGreys = image(256, 256) { x, _ in let v = UInt8(85 * (x % 4)); return (v, v, v, 255) }
    /// Three opaque colours: a 2-bit palette.
    static let threeColours = image(256, 256) { x, y in [(200, 30, 30, 255), (30, 200, 30, 255), (30, 30, 200, 255)][(x / 16 + y / 16) % 3] }
    /// Twenty colours, some translucent: an 8-bit palette with a tRNS chunk.
    static let translucentPalette = image(256, 256) { x, y in
        let index = (x / 13 + y / 29) % 20
        return (UInt8(index * 12), UInt8(255 - index * 12), 90, index < 5 ? UInt8(index * 50) : 255)
    }
    /// Nothing but transparency.
    static let empty = image(256, 256) { _, _ in (0, 0, 0, 0) }
    /// Land and sea: a map-like opaque tile of a few hundred colours with anti-aliased edges.
    static let mapLike = image(256, 256) { x, y in
        let d = Double((x - 128) * (x - 128) + (y - 100) * (y - 100)).squareRoot()
        let land = max(0, min(1, (90 - d) / 3))
        let r = UInt8(170 * land + 160 * (1 - land)), g = UInt8(210 * land + 200 * (1 - land)), b = UInt8(160 * land + 240 * (1 - land))
        return (r, g, b, 255)
    }

    /// The samples by name, so that test arguments (printed in the log) stay short.
    static let named: [String: RasterReencoder.Image] = [
        "gradient": gradient, "opaque gradient": opaqueGradient, "256 greys": grey, "four greys": fourGreys,
        "three colours": threeColours, "translucent palette": translucentPalette, "empty": empty, "map-like": mapLike,
    ]

    /// The colour type and bit depth an encoded PNG declares in its IHDR.
    static func pngLayout(_ bytes: [UInt8]) -> (colorType: UInt8, bitDepth: UInt8)? {
        bytes.count > 25 ? (bytes[25], bytes[24]) : nil
    }

    /// A PNG of chunks written here, for hostile headers: IHDR with the given size, then IDAT and
    /// IEND with valid CRCs.
    static func handMadePNG(width: UInt32, height: UInt32, idat: [UInt8] = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Peak signal-to-noise ratio of `other` against `reference` over RGB, in dB (infinity
    /// when equal).
    static func psnr(_ reference: RasterReencoder.Image, _ other: RasterReencoder.Image) -> Double {
        var squares = 0.0, count = 0.0
        for index in stride(from: 0, to: reference.rgba.count, by: 4) {
            for channel in 0..<3 {
                let difference = Double(reference.rgba[index + channel]) - Double(other.rgba[index + channel])
                squares += difference * difference
                count += 1
            }
        }
        return squares == 0 ? .infinity : 10 * log10(255 * 255 / (squares / count))
    }

    /// Every tile of both stores decoded; the coordinates where the pixels differ (or one side
    /// lacks the tile), and how many tiles were compared.
    static func pixelDifferences(_ source: String, _ destination: String) throws -> (compared: Int, differing: [TileCoordinate]) {
        let before = try StoreContents.tiles(source), after = try StoreContents.tiles(destination)
        var differing: [TileCoordinate] = []
        for (coordinate, data) in before {
            guard let written = after[coordinate],
                  try RasterReencoder.decode(data).hasSamePixels(as: try RasterReencoder.decode(written)) else {
                differing.append(coordinate)
                continue
            }
        }
        differing += after.keys.filter { before[$0] == nil }
        return (before.count, differing.sorted())
    }
}
