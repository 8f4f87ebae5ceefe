/// The width and height in pixels of a PNG, JPEG, WebP or GIF image, read from its header
/// without decoding it; nil for other bytes or a header cut short.
enum ImageHeaderSize {
    static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        func big(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= bytes.count else { return nil }
            return bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        func little(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= bytes.count else { return nil }
            return bytes[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), let width = big(16, 4), let height = big(20, 4) { return (width, height) }
        if bytes.starts(with: Array("GIF8".utf8)), let width = little(6, 2), let height = little(8, 2) { return (width, height) }
        if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 30, Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return webP(bytes, little)
        }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpeg(bytes, big) }
        return nil
    }

    private static func webP(_ bytes: [UInt8], _ little: (Int, Int) -> Int?) -> (width: Int, height: Int)? {
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard let width = little(26, 2), let height = little(28, 2) else { return nil }
            return (width & 0x3FFF, height & 0x3FFF)
        case "VP8L":
            guard let packed = little(21, 4) else { return nil }
            return ((packed & 0x3FFF) + 1, (packed >> 14 & 0x3FFF) + 1)
        case "VP8X":
            guard let width = little(24, 3), let height = little(27, 3) else { return nil }
            return (width + 1, height + 1)
        default:
            return nil
        }
    }

    private static func jpeg(_ bytes: [UInt8], _ big: (Int, Int) -> Int?) -> (width: Int, height: Int)? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if (0xD0...0xD9).contains(marker) || marker == 0x01 { offset += 2; continue }
            guard let length = big(offset + 2, 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let height = big(offset + 5, 2), let width = big(offset + 7, 2) else { return nil }
                return (width, height)
            }
            offset += 2 + length
        }
        return nil
    }
}
