import Foundation
import Testing
@testable import TileSync

/// Outlines as detailed as real boundaries, made here: the cover must stay exact (checked by
/// clipping the outline to each tile and measuring the area left) and cost vertices plus rows.
@Suite("Regions: outlines of a million vertices")
struct RegionDetailedOutlineTests {
    typealias Point = (x: Double, y: Double)

    /// A star-shaped ring around a centre whose radius wanders at many scales, like a coastline.
    static func wigglyRing(longitude: Double, latitude: Double, radius: Double, count: Int, seed: inout UInt64, clockwise: Bool) -> [[Double]] {
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let waves = stride(from: 3, to: 400, by: 7).map { (phase: random() * 2 * .pi, k: Double($0), amplitude: 0.08 / pow(Double($0), 0.7)) }
        var ring: [[Double]] = (0..<count).map { index in
            let t = 2 * Double.pi * Double(index) / Double(count)
            let r = max(0.75, waves.reduce(1.0) { $0 + $1.amplitude * sin($1.k * t + $1.phase) }) * radius
            return [longitude + r * cos(t), latitude + 0.7 * r * sin(t)]
        }
        if clockwise { ring.reverse() }
        return ring + [ring[0]]
    }

    /// Two parts, each an outer ring of `vertices / 2 - 12 * holeVertices` positions and 12 holes.
    static func outline(vertices: Int, holeVertices: Int) -> [[[[Double]]]] {
        var seed: UInt64 = 49
        return [(10.0, 48.0, 5.0), (24.0, 44.0, 3.0)].map { centre in
            let holes = (0..<12).map { hole in
                let angle = 2 * Double.pi * Double(hole) / 12, distance = centre.2 * (0.3 + 0.15 * Double(hole % 3))
                return wigglyRing(longitude: centre.0 + distance * cos(angle), latitude: centre.1 + 0.7 * distance * sin(angle),
                                  radius: centre.2 * 0.05, count: holeVertices, seed: &seed, clockwise: true)
            }
            let outer = wigglyRing(longitude: centre.0, latitude: centre.1, radius: centre.2,
                                   count: vertices / 2 - 12 * holeVertices, seed: &seed, clockwise: false)
            return [outer] + holes
        }
    }

    static func geoJSON(_ parts: [[[[Double]]]]) -> String {
        let coordinates = parts.map { rings in
            "[" + rings.map { ring in "[" + ring.map { "[\($0[0]),\($0[1])]" }.joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        return "{\"type\":\"MultiPolygon\",\"coordinates\":[" + coordinates.joined(separator: ",") + "]}"
    }

    /// The area of `ring` inside the square `x...x+1`, `y...y+1` (Sutherland and Hodgman).
    static func area(of ring: [Point], inSquareAt x: Double, _ y: Double) -> Double {
        var points = ring
        let sides: [(Point) -> Double] = [{ $0.x - x }, { x + 1 - $0.x }, { $0.y - y }, { y + 1 - $0.y }]
        for inside in sides {
            var kept: [Point] = []
            for (index, current) in points.enumerated() {
                let previous = points[(index + points.count - 1) % points.count]
                let a = inside(previous), b = inside(current)
                if (a >= 0) != (b >= 0) {
                    let t = a / (a - b)
                    kept.append((previous.x + (current.x - previous.x) * t, previous.y + (current.y - previous.y) * t))
                }
                if b >= 0 { kept.append(current) }
            }
            points = kept
            if points.isEmpty { return 0 }
        }
        var twice = 0.0
        for (index, current) in points.enumerated() {
            let next = points[(index + 1) % points.count]
            twice += current.x * next.y - next.x * current.y
        }
        return abs(twice) / 2
    }

    /// The tiles at zoom `z` where the polygons leave area, by clipping (an independent cover).
    static func clippedCover(_ parts: [[[[Double]]]], zoom z: Int) -> [String] {
        let scale = Double(1 << z)
        var tiles: [String] = []
        for rings in parts {
            let projected: [[Point]] = rings.map { ring in
                ring.dropLast().map { (WebMercator.xFraction($0[0]) * scale, WebMercator.yFraction($0[1]) * scale) }
            }
            let xs = projected[0].map(\.x), ys = projected[0].map(\.y)
            guard let west = xs.min(), let east = xs.max(), let north = ys.min(), let south = ys.max() else { continue }
            for x in Int(west)...Int(east) {
                for y in Int(north)...Int(south) {
                    let holes = projected.dropFirst().reduce(0.0) { $0 + area(of: $1, inSquareAt: Double(x), Double(y)) }
                    if area(of: projected[0], inSquareAt: Double(x), Double(y)) - holes > 1e-12 { tiles.append("\(z)/\(x)/\(y)") }
                }
            }
        }
        return Set(tiles).sorted()
    }

    @Test("a million vertices with 24 holes: zooms 0-14 covered, equal to clipping at zooms 4-8")
    func millionVertices() throws {
        let parts = Self.outline(vertices: 1_000_000, holeVertices: 2_000)
        #expect(parts.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count - 1 } } == 1_000_000)
        let region = try TileRegion(geoJSON: Data(Self.geoJSON(parts).utf8), name: "coast")
        for z in 4...8 {
            let expected = Self.clippedCover(parts, zoom: z)
            #expect(RegionCoverTests.tiles(region.cover(atZoom: z)) == expected, "zoom \(z)")
        }
        let counts = (0...14).map { region.tileCount(atZoom: $0) }
        #expect(counts[0] == 1 && counts[14] > counts[13] * 3)
        let cover = region.cover(atZoom: 14)
        let centre = try WebMercator.tile(longitude: 10, latitude: 48, zoom: 14)
        #expect(cover.contains(x: centre.x, y: centre.y))
        let hole = try WebMercator.tile(longitude: 10 + 1.5, latitude: 48, zoom: 14)
        #expect(!cover.contains(x: hole.x, y: hole.y), "the first hole's centre is outside")
    }

    @Test("two neighbouring vertices swapped among 200,000 are found and named")
    func crossingInDetail() throws {
        var parts = Self.outline(vertices: 200_000, holeVertices: 500)
        let ring = parts[1][0], middle = ring.count / 2
        parts[1][0][middle] = ring[middle + 1]
        parts[1][0][middle + 1] = ring[middle]
        let text = "{\"type\":\"Feature\",\"properties\":{\"name\":\"coast\"},\"geometry\":\(Self.geoJSON(parts))}"
        #expect {
            _ = try TileRegion(geoJSON: Data(text.utf8), name: "coast.geojson")
        } throws: { error in
            let message = "\(error)"
            let lon = (ring[middle][0] + ring[middle + 1][0]) / 2
            return message.hasPrefix("coast.geojson: feature (\"coast\"), MultiPolygon polygon 2: its rings cross themselves or each other near [")
                && message.contains("[\(String(format: "%.3f", lon).dropLast())")
        }
    }

    @Test("a 500 km corridor of one segment covers every row between its ends (the outline's extent is its edges', whatever their order)")
    func longCorridor() throws {
        let route = #"{"type":"LineString","coordinates":[[13.37,52.52],[11.58,48.14]]}"#
        let region = try TileRegion(geoJSON: Data(route.utf8), name: "trip", buffer: GroundDistance(parsing: "2km"))
        let cover = region.cover(atZoom: 10)
        let north = try WebMercator.tile(longitude: 13.37, latitude: 52.52, zoom: 10), south = try WebMercator.tile(longitude: 11.58, latitude: 48.14, zoom: 10)
        #expect(cover.tileCount == 31)
        for row in north.y...south.y { #expect(!cover.columns(inRow: row).isEmpty, "row \(row)") }
    }
}
