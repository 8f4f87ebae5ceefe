import Foundation

/// The corridor within a distance on the ground around a route, as convex polygons in Web
/// Mercator world fractions whose union holds every point within the distance: around each
/// point a circle of radius `metres / cos(latitude)` (the Web Mercator scale there; exact for
/// distances small against the Earth), drawn as a polygon around the circle, and for each
/// segment the convex hull of its two end circles.
///
/// Points closer to the last kept point than 2% of the distance are dropped first (a GPS
/// track's thousands of points), and the radius grows by that 2%, so the corridor still holds
/// everything within the distance and nothing farther than 2.9% beyond it. Parts that reach
/// past the antimeridian are repeated one world's width over, on the other side.
enum CorridorPolygons {
    /// Sides of the polygon drawn around each circle.
    static let circleSides = 24
    /// The Earth's circumference at the equator on the Web Mercator sphere, in metres.
    static let equatorMetres = 2 * Double.pi * 6_378_137
    /// Points closer than this share of the distance to the previous point are dropped.
    static let thinning = 0.02

    static func polygons(along route: [(x: Double, y: Double)], metres: Double) -> [[(x: Double, y: Double)]] {
        guard let first = route.first else { return [] }
        let radiusMetres = metres * (1 + thinning) / cos(Double.pi / Double(circleSides))
        var kept = [first]
        for point in route.dropFirst() {
            guard let last = kept.last else { continue }
            if groundMetres(from: last, to: point) > metres * thinning { kept.append(point) }
        }
        if let last = route.last, let lastKept = kept.last, groundMetres(from: lastKept, to: last) > 0 { kept.append(last) }
        let circles = kept.map { circle(around: $0, metres: radiusMetres) }
        var hulls: [[(x: Double, y: Double)]] = []
        if circles.count == 1 {
            hulls = circles
        } else {
            for (a, b) in zip(circles, circles.dropFirst()) { hulls.append(convexHull(a + b)) }
        }
        var result: [[(x: Double, y: Double)]] = []
        for hull in hulls {
            result.append(hull)
            let xs = hull.map(\.x)
            if let low = xs.min(), low < 0 { result.append(hull.map { ($0.x + 1, $0.y) }) }
            if let high = xs.max(), high > 1 { result.append(hull.map { ($0.x - 1, $0.y) }) }
        }
        return result
    }

    /// Metres per world fraction at height `y` (the Web Mercator scale: shorter toward the poles).
    static func metresPerFraction(atY y: Double) -> Double {
        equatorMetres * cos(WebMercator.latitude(y: min(1, max(0, y))) * Double.pi / 180)
    }

    private static func groundMetres(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) -> Double {
        let dx = a.x - b.x, dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot() * min(metresPerFraction(atY: a.y), metresPerFraction(atY: b.y))
    }

    private static func circle(around center: (x: Double, y: Double), metres: Double) -> [(x: Double, y: Double)] {
        let radius = metres / metresPerFraction(atY: center.y)
        return (0..<circleSides).map { side in
            let angle = 2 * Double.pi * Double(side) / Double(circleSides)
            return (center.x + radius * cos(angle), center.y + radius * sin(angle))
        }
    }

    /// Andrew's monotone chain; the hull in counter-clockwise order (y down), without repeats.
    static func convexHull(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        let sorted = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        guard sorted.count > 2 else { return sorted }
        func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [(x: Double, y: Double)] = []
        for point in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], point) <= 0 { lower.removeLast() }
            lower.append(point)
        }
        var upper: [(x: Double, y: Double)] = []
        for point in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], point) <= 0 { upper.removeLast() }
            upper.append(point)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }
}
