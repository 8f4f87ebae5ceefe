import Foundation

/// A region as straight edges in Web Mercator world fractions, sorted by their northern end:
/// what the cover sweep reads. Made from GeoJSON shapes: polygons as they are (vertices
/// projected, edges straight in Web Mercator), and with a buffer each line, point and polygon
/// edge grown into a corridor (`CorridorPolygons`).
struct RegionOutline: Sendable {
    /// Edges sorted by `y0`; pairs of one polygon that coincide (a spike out and back, a cut to
    /// a hole) are left out, as they bound no area under the even-odd rule.
    let edges: [RegionEdge]
    /// Horizontal edges sorted by `y`.
    let flats: [RegionFlatEdge]
    /// The extent of the edges in world fractions (x may reach beyond 0...1 for a corridor
    /// across the antimeridian; those parts are also present shifted by one world).
    let minX: Double, maxX: Double, minY: Double, maxY: Double

    /// Projects the shapes; polygons are checked (rings crossing, holes outside their ring, no
    /// area), lines and points need a buffer.
    /// - Throws: `RegionError` naming the file and the feature.
    init(_ shapes: RegionShapes, buffer: GroundDistance?, file: String) throws(RegionError) {
        var (edges, flats) = try Self.polygonEdges(shapes, file: file)
        var polygonID = Int32(shapes.polygons.count)
        if !shapes.lines.isEmpty {
            guard let buffer else {
                throw RegionError(file: file, item: shapes.lines[0].label,
                                  message: "a line or point has no area: give --buffer DISTANCE (e.g. 500m) for the corridor around it")
            }
            guard buffer.metres > 0 else {
                throw RegionError(file: file, item: shapes.lines[0].label, message: "a line or point needs a --buffer above 0 m")
            }
        }
        if let buffer, buffer.metres > 0 {
            let routes = shapes.lines.map { $0.positions.map(Self.project) }
                + shapes.polygons.flatMap { $0.rings.map { $0.map(Self.project) } }
            for route in routes {
                for corridor in CorridorPolygons.polygons(along: route, metres: buffer.metres) {
                    for (a, b) in zip(corridor, corridor.dropFirst() + corridor.prefix(1)) {
                        if let edge = RegionEdge(from: a, to: b, polygon: polygonID) {
                            edges.append(edge)
                        } else if let flat = RegionFlatEdge(from: a, to: b, polygon: polygonID) {
                            flats.append(flat)
                        }
                    }
                    polygonID += 1
                }
            }
        }
        self.edges = Self.withoutCoincidentPairs(edges).sorted { $0.y0 < $1.y0 }
        self.flats = flats.sorted { $0.y < $1.y }
        minX = self.edges.lazy.map { min($0.x0, $0.x1) }.min() ?? 0
        maxX = self.edges.lazy.map { max($0.x0, $0.x1) }.max() ?? 0
        minY = self.edges.first?.y0 ?? 0
        maxY = self.edges.lazy.map(\.y1).max() ?? 0
    }

    /// The polygons' edges (polygon IDs in the order given), after checking that no polygon's
    /// edges cross, that holes lie inside their outer ring and that outer rings enclose area.
    private static func polygonEdges(_ shapes: RegionShapes, file: String) throws(RegionError) -> ([RegionEdge], [RegionFlatEdge]) {
        var edges: [RegionEdge] = []
        var polygonID: Int32 = 0
        var labels: [String] = []
        var flat: [RegionFlatEdge] = []
        let projected = shapes.polygons.map { $0.rings.map { $0.map(Self.project) } }
        for (polygon, rings) in zip(shapes.polygons, projected) {
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst()) {
                    if let edge = RegionEdge(from: a, to: b, polygon: polygonID) {
                        edges.append(edge)
                    } else if let line = RegionFlatEdge(from: a, to: b, polygon: polygonID) {
                        flat.append(line)
                    }
                }
            }
            labels.append(polygon.label)
            polygonID += 1
        }
        edges.sort { $0.y0 < $1.y0 }
        flat.sort { $0.y < $1.y }
        if let crossing = RegionCrossingCheck.firstCrossing(in: edges, flat: flat) {
            let where_ = "near [\(DegreeText.format(WebMercator.longitude(x: crossing.x))), \(DegreeText.format(WebMercator.latitude(y: crossing.y)))]"
            throw RegionError(file: file, item: labels[Int(crossing.polygon)],
                              message: "its rings cross themselves or each other \(where_): a polygon's edges may touch, never cross")
        }
        for (polygon, rings) in zip(shapes.polygons, projected) {
            try Self.checkArea(rings, label: polygon.label, file: file)
            guard let outer = rings.first else { continue }
            for (index, hole) in rings.enumerated().dropFirst() {
                if let inside = hole.first(where: { Self.side(of: $0, ring: outer) != 0 }), Self.side(of: inside, ring: outer) < 0 {
                    throw RegionError(file: file, item: "\(polygon.label) ring \(index + 1) (hole)",
                                      message: "lies outside the polygon's outer ring")
                }
            }
        }
        return (edges, flat)
    }

    /// `edges` without pairs of one polygon that join the same two points.
    private static func withoutCoincidentPairs(_ edges: [RegionEdge]) -> [RegionEdge] {
        func key(_ edge: RegionEdge) -> (Int32, Double, Double, Double, Double) { (edge.polygon, edge.y0, edge.x0, edge.y1, edge.x1) }
        let sorted = edges.sorted { key($0) < key($1) }
        var kept: [RegionEdge] = []
        kept.reserveCapacity(sorted.count)
        var index = 0
        while index < sorted.count {
            if index + 1 < sorted.count, sorted[index] == sorted[index + 1] {
                index += 2
                continue
            }
            kept.append(sorted[index])
            index += 1
        }
        return kept
    }

    /// The longitude/latitude extent (the world's width when a corridor crosses the antimeridian).
    var bounds: BoundingBox {
        let west = minX < 0 || maxX > 1 ? -180 : WebMercator.longitude(x: minX)
        let east = minX < 0 || maxX > 1 ? 180 : WebMercator.longitude(x: maxX)
        return BoundingBox(uncheckedWest: max(-180, west), south: WebMercator.latitude(y: min(1, maxY)),
                           east: min(180, east), north: WebMercator.latitude(y: max(0, minY)))
    }

    static func project(_ position: RegionShapes.Position) -> (x: Double, y: Double) {
        (WebMercator.xFraction(position.longitude), WebMercator.yFraction(position.latitude))
    }

    private static func checkArea(_ rings: [[(x: Double, y: Double)]], label: String, file: String) throws(RegionError) {
        guard let outer = rings.first else { return }
        var twiceArea = 0.0
        for (a, b) in zip(outer, outer.dropFirst()) { twiceArea += a.x * b.y - b.x * a.y }
        guard abs(twiceArea) > 1e-24 else {
            throw RegionError(file: file, item: "\(label) ring 1 (outer)", message: "encloses no area (its positions lie on one line)")
        }
    }

    /// 1 inside `ring`, -1 outside, 0 on an edge (even-odd rule, Web Mercator straight edges).
    private static func side(of point: (x: Double, y: Double), ring: [(x: Double, y: Double)]) -> Int {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) {
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if cross == 0, min(a.x, b.x) <= point.x, point.x <= max(a.x, b.x), min(a.y, b.y) <= point.y, point.y <= max(a.y, b.y) {
                return 0
            }
            if (a.y > point.y) != (b.y > point.y), point.x < a.x + (b.x - a.x) * (point.y - a.y) / (b.y - a.y) {
                inside.toggle()
            }
        }
        return inside ? 1 : -1
    }
}
