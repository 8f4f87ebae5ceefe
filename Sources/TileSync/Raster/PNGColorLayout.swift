/// The smallest PNG colour type and bit depth that hold an image's pixels exactly, as optipng and
/// oxipng choose them: a palette (1, 2, 4 or 8 bits, with a tRNS chunk for its non-opaque
/// entries) when at most 256 colours occur, grey (1 to 8 bits) when every pixel is grey, no
/// alpha channel when every pixel is opaque; else RGB or RGBA.
struct PNGColorLayout: Equatable {
    enum ColorType: Int32, Equatable {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6
    }

    let colorType: ColorType
    let bitDepth: Int
    /// RGBA colours as `0xRRGGBBAA`, non-opaque ones first (palette images only).
    let palette: [UInt32]

    /// Bytes per packed row.
    func rowBytes(width: Int) -> Int {
        let channels: Int = switch colorType {
        case .gray, .palette: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
        return (width * channels * bitDepth + 7) / 8
    }

    /// The layout for an image's pixels.
    static func choose(for image: RasterReencoder.Image) -> PNGColorLayout {
        var opaque = true, gray = true
        var grayDepth = 1
        image.rgba.withUnsafeBufferPointer { pixels in
            var index = 0
            while index < pixels.count {
                let red = pixels[index], green = pixels[index + 1], blue = pixels[index + 2], alpha = pixels[index + 3]
                if alpha != 255 { opaque = false }
                if red != green || green != blue { gray = false }
                if gray { grayDepth = max(grayDepth, depth(ofGray: red)) }
                index += 4
            }
        }
        let colors = distinctColors(image, upTo: 256)
        if let colors {
            let paletteDepth = colors.count <= 2 ? 1 : colors.count <= 4 ? 2 : colors.count <= 16 ? 4 : 8
            if !(gray && opaque) || paletteDepth < grayDepth {
                let ordered = colors.sorted { ($0 & 0xFF == 0xFF ? 1 : 0, $0) < ($1 & 0xFF == 0xFF ? 1 : 0, $1) }
                return PNGColorLayout(colorType: .palette, bitDepth: paletteDepth, palette: ordered)
            }
        }
        if gray { return PNGColorLayout(colorType: opaque ? .gray : .grayAlpha, bitDepth: opaque ? grayDepth : 8, palette: []) }
        return PNGColorLayout(colorType: opaque ? .rgb : .rgba, bitDepth: 8, palette: [])
    }

    /// The image's rows packed for this layout.
    func pack(_ image: RasterReencoder.Image) -> [UInt8] {
        let stride = rowBytes(width: image.width)
        var rows = [UInt8](repeating: 0, count: stride * image.height)
        let indexes = colorType == .palette ? Self.indexTable(palette) : nil
        let grayLevels: Int = (1 << bitDepth) - 1
        image.rgba.withUnsafeBufferPointer { (pixels: UnsafeBufferPointer<UInt8>) -> Void in
            rows.withUnsafeMutableBufferPointer { (packed: inout UnsafeMutableBufferPointer<UInt8>) -> Void in
                for row in 0..<image.height {
                    let line = row * image.width * 4
                    let out = row * stride
                    for column in 0..<image.width {
                        let pixel = line + column * 4
                        switch colorType {
                        case .rgba:
                            for channel in 0..<4 { packed[out + column * 4 + channel] = pixels[pixel + channel] }
                        case .rgb:
                            for channel in 0..<3 { packed[out + column * 3 + channel] = pixels[pixel + channel] }
                        case .grayAlpha:
                            packed[out + column * 2] = pixels[pixel]
                            packed[out + column * 2 + 1] = pixels[pixel + 3]
                        case .gray:
                            let level: Int = Int(pixels[pixel]) * grayLevels / 255
                            put(UInt8(level), at: column, in: packed, from: out)
                        case .palette:
                            let color = UInt32(pixels[pixel]) << 24 | UInt32(pixels[pixel + 1]) << 16
                                | UInt32(pixels[pixel + 2]) << 8 | UInt32(pixels[pixel + 3])
                            put(UInt8(indexes?.index(of: color) ?? 0), at: column, in: packed, from: out)
                        }
                    }
                }
            }
        }
        return rows
    }

    private func put(_ value: UInt8, at column: Int, in packed: UnsafeMutableBufferPointer<UInt8>, from start: Int) {
        if bitDepth == 8 {
            packed[start + column] = value
            return
        }
        let perByte = 8 / bitDepth
        let shift = (perByte - 1 - column % perByte) * bitDepth
        packed[start + column / perByte] |= value << shift
    }

    /// The grey depth that holds a sample exactly: 1 for 0 and 255, 2 for multiples of 85, ...
    private static func depth(ofGray value: UInt8) -> Int {
        if value % 255 == 0 { return 1 }
        if value % 85 == 0 { return 2 }
        if value % 17 == 0 { return 4 }
        return 8
    }

    /// The distinct RGBA colours, or nil when there are more than `limit`.
    private static func distinctColors(_ image: RasterReencoder.Image, upTo limit: Int) -> [UInt32]? {
        var table = ColorTable()
        return image.rgba.withUnsafeBufferPointer { pixels -> [UInt32]? in
            var index = 0
            var previous: UInt32? = nil
            while index < pixels.count {
                let color = UInt32(pixels[index]) << 24 | UInt32(pixels[index + 1]) << 16
                    | UInt32(pixels[index + 2]) << 8 | UInt32(pixels[index + 3])
                index += 4
                if color == previous { continue }
                previous = color
                table.insert(color)
                if table.colors.count > limit { return nil }
            }
            return table.colors
        }
    }

    private static func indexTable(_ palette: [UInt32]) -> ColorTable {
        var table = ColorTable()
        for color in palette { table.insert(color) }
        return table
    }

    /// An open-addressing set of at most 257 colours that remembers their order of insertion.
    private struct ColorTable {
        private var keys = [UInt64](repeating: 0, count: 1024)
        private var slots = [UInt16](repeating: 0, count: 1024)
        private(set) var colors: [UInt32] = []

        mutating func insert(_ color: UInt32) {
            var slot = Self.hash(color)
            while keys[slot] != 0 {
                if keys[slot] == UInt64(color) + 1 { return }
                slot = (slot + 1) & 1023
            }
            keys[slot] = UInt64(color) + 1
            slots[slot] = UInt16(colors.count)
            colors.append(color)
        }

        func index(of color: UInt32) -> Int? {
            var slot = Self.hash(color)
            while keys[slot] != 0 {
                if keys[slot] == UInt64(color) + 1 { return Int(slots[slot]) }
                slot = (slot + 1) & 1023
            }
            return nil
        }

        private static func hash(_ color: UInt32) -> Int { Int((color &* 0x9E37_79B1) >> 22) }
    }
}
