import Foundation
import TileSync

/// Map-like raster tiles for the re-encoding benchmark (`generate --kind picture`): 256x256
/// opaque pictures of land, water, parks, roads with casings and small dark marks (labels),
/// anti-aliased, each drawn from the tile's own random stream and written as a renderer writes
/// PNG (RGB, zlib level 6). A share of tiles are plain sea, as real sets hold many.
struct MapPictureGenerator {
    static let size = 256
    private static let land: (Double, Double, Double) = (242, 239, 233)
    private static let water: (Double, Double, Double) = (170, 211, 223)
    private static let park: (Double, Double, Double) = (200, 230, 180)

    /// The PNG of one tile; `seed` picks its features.
    static func tile(seed: UInt64) throws -> Data {
        var state = seed
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        let side = Double(size)
        var pixels = [Double](repeating: 0, count: size * size * 3)
        for index in 0..<(size * size) {
            pixels[index * 3] = land.0
            pixels[index * 3 + 1] = land.1
            pixels[index * 3 + 2] = land.2
        }
        func blend(_ x: Int, _ y: Int, _ color: (Double, Double, Double), _ coverage: Double) {
            guard coverage > 0, x >= 0, y >= 0, x < size, y < size else { return }
            let index = (y * size + x) * 3, keep = 1 - min(1, coverage)
            pixels[index] = pixels[index] * keep + color.0 * (1 - keep)
            pixels[index + 1] = pixels[index + 1] * keep + color.1 * (1 - keep)
            pixels[index + 2] = pixels[index + 2] * keep + color.2 * (1 - keep)
        }
        func disc(_ cx: Double, _ cy: Double, _ radius: Double, _ color: (Double, Double, Double)) {
            for y in max(0, Int(cy - radius - 1))...min(size - 1, Int(cy + radius + 1)) {
                for x in max(0, Int(cx - radius - 1))...min(size - 1, Int(cx + radius + 1)) {
                    let distance = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                    blend(x, y, color, radius + 0.5 - distance)
                }
            }
        }
        func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, width: Double, _ color: (Double, Double, Double)) {
            let dx = x1 - x0, dy = y1 - y0, length = max(1, (dx * dx + dy * dy).squareRoot())
            for y in max(0, Int(min(y0, y1) - width - 1))...min(size - 1, Int(max(y0, y1) + width + 1)) {
                for x in max(0, Int(min(x0, x1) - width - 1))...min(size - 1, Int(max(x0, x1) + width + 1)) {
                    let t = max(0, min(1, ((Double(x) - x0) * dx + (Double(y) - y0) * dy) / (length * length)))
                    let px = x0 + t * dx - Double(x), py = y0 + t * dy - Double(y)
                    blend(x, y, color, width / 2 + 0.5 - (px * px + py * py).squareRoot())
                }
            }
        }
        for _ in 0..<Int(next() * 3) { disc(next() * side, next() * side, 20 + next() * 70, water) }
        for _ in 0..<Int(next() * 4) { disc(next() * side, next() * side, 8 + next() * 30, park) }
        for _ in 0..<(2 + Int(next() * 6)) {
            let (x0, y0, x1, y1) = (next() * side, next() * side, next() * side, next() * side)
            let width = 2 + next() * 5
            line(x0, y0, x1, y1, width: width + 2, (190, 180, 170))
            line(x0, y0, x1, y1, width: width, next() < 0.3 ? (250, 220, 160) : (255, 255, 255))
        }
        for _ in 0..<Int(next() * 12) {
            let x = next() * (side - 30), y = next() * side
            for step in 0..<(4 + Int(next() * 8)) { disc(x + Double(step) * 3, y + next() * 2, 1.2, (90, 80, 70)) }
        }
        var rgba = [UInt8](repeating: 255, count: size * size * 4)
        for index in 0..<(size * size) {
            for channel in 0..<3 { rgba[index * 4 + channel] = UInt8(pixels[index * 3 + channel].rounded()) }
        }
        return try RasterReencoder.renderedPNG(RasterReencoder.Image(width: size, height: size, rgba: rgba))
    }

    /// Plain sea.
    static func sea() throws -> Data {
        var rgba: [UInt8] = []
        for _ in 0..<(size * size) { rgba += [UInt8(water.0), UInt8(water.1), UInt8(water.2), 255] }
        return try RasterReencoder.renderedPNG(RasterReencoder.Image(width: size, height: size, rgba: rgba))
    }
}
