/// Finds two edges of one polygon that cross (a self-intersecting ring, or rings crossing each
/// other), by a sweep over the horizontal slabs between vertex heights: inside a slab no edge
/// starts or ends, so two edges cross there exactly when their left-to-right order at the
/// slab's top differs from the order at its bottom, and one such pair is always adjacent.
/// Edges that only touch (at a shared vertex) keep their order and are allowed.
enum RegionCrossingCheck {
    /// Where a crossing lies, in world fractions, and the polygon it is in.
    struct Crossing: Sendable, Equatable {
        let polygon: Int32
        let x: Double
        let y: Double
    }

    /// A horizontal edge (left out of the sweep's slabs, checked at its height).
    struct Flat: Sendable, Equatable {
        let y: Double
        let x0: Double
        let x1: Double
        let polygon: Int32
    }

    private static let tolerance = 1e-13

    /// The first crossing from the north, nil when there is none.
    /// - Parameters:
    ///   - edges: edges sorted by `y0`.
    ///   - flat: horizontal edges sorted by `y`; one crosses an edge of its polygon that passes
    ///     through its height strictly between its ends.
    static func firstCrossing(in edges: [RegionEdge], flat: [Flat] = []) -> Crossing? {
        var nextFlat = 0
        var heights = edges.flatMap { [$0.y0, $0.y1] }
        heights.sort()
        var unique: [Double] = []
        for height in heights where unique.last != height { unique.append(height) }
        var next = 0
        var active: [Int] = []
        var slab: [(polygon: Int32, top: Double, bottom: Double)] = []
        for (top, bottom) in zip(unique, unique.dropFirst()) {
            while next < edges.count, edges[next].y0 <= top {
                active.append(next)
                next += 1
            }
            active.removeAll { edges[$0].y1 <= top }
            while nextFlat < flat.count, flat[nextFlat].y <= top {
                let line = flat[nextFlat]
                nextFlat += 1
                guard line.y == top else { continue }
                for index in active where edges[index].polygon == line.polygon && edges[index].y0 < top {
                    let x = edges[index].x(at: top)
                    if x > line.x0 + tolerance, x < line.x1 - tolerance { return Crossing(polygon: line.polygon, x: x, y: top) }
                }
            }
            slab.removeAll(keepingCapacity: true)
            for index in active {
                slab.append((edges[index].polygon, edges[index].x(at: top), edges[index].x(at: bottom)))
            }
            slab.sort { ($0.polygon, $0.top, $0.bottom) < ($1.polygon, $1.top, $1.bottom) }
            for (left, right) in zip(slab, slab.dropFirst()) where left.polygon == right.polygon {
                guard left.bottom > right.bottom + tolerance, left.top < right.top else { continue }
                let gapTop = right.top - left.top, gapBottom = left.bottom - right.bottom
                let t = gapTop / (gapTop + gapBottom)
                return Crossing(polygon: left.polygon, x: left.top + (left.bottom - left.top) * t, y: top + (bottom - top) * t)
            }
        }
        return nil
    }
}
