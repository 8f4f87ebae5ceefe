extension RasterReencoder {
    /// Decoded tile pixels: 8-bit RGBA, rows top to bottom, `width * 4` bytes a row.
    public struct Image: Sendable, Equatable {
        /// Pixels across.
        public let width: Int
        /// Pixels down.
        public let height: Int
        /// Red, green, blue, alpha per pixel (alpha not premultiplied).
        public let rgba: [UInt8]
        /// True when the stored samples had 16 bits and were reduced to 8 on decoding.
        public let reducedPrecision: Bool

        /// - Precondition: `rgba.count == width * height * 4`.
        public init(width: Int, height: Int, rgba: [UInt8], reducedPrecision: Bool = false) {
            precondition(rgba.count == width * height * 4, "RGBA pixels must be width * height * 4 bytes")
            self.width = width
            self.height = height
            self.rgba = rgba
            self.reducedPrecision = reducedPrecision
        }

        /// True when every pixel has alpha 255.
        public var isOpaque: Bool { allAlpha { $0 == 255 } }

        /// True when every pixel has alpha 0 (an empty tile).
        public var isFullyTransparent: Bool { allAlpha { $0 == 0 } }

        /// True when the images have the same size and the same RGBA bytes.
        public func hasSamePixels(as other: RasterReencoder.Image) -> Bool {
            width == other.width && height == other.height && rgba == other.rgba
        }

        /// The pixels as RGB, each composited over `background` by its alpha (opaque ones as they are).
        public func rgb(over background: RasterReencoder.Color) -> [UInt8] {
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            rgba.withUnsafeBufferPointer { source in
                rgb.withUnsafeMutableBufferPointer { target in
                    let under = [background.red, background.green, background.blue].map { UInt32($0) }
                    for pixel in 0..<(width * height) {
                        let alpha = UInt32(source[pixel * 4 + 3])
                        for channel in 0..<3 {
                            let value = UInt32(source[pixel * 4 + channel])
                            target[pixel * 3 + channel] = alpha == 255 ? UInt8(value)
                                : UInt8((value * alpha + under[channel] * (255 - alpha) + 127) / 255)
                        }
                    }
                }
            }
            return rgb
        }

        private func allAlpha(_ test: (UInt8) -> Bool) -> Bool {
            rgba.withUnsafeBufferPointer { pixels in
                var index = 3
                while index < pixels.count {
                    if !test(pixels[index]) { return false }
                    index += 4
                }
                return true
            }
        }
    }
}
