/// Finds two edges of one polygon that cross (a self-intersecting ring, or rings crossing each
/// other) by a sweep from north to south that keeps each polygon's edges ordered west to east
/// (Shamos and Hoey): the northernmost crossing is between two edges that were neighbours in
/// that order just above it, so only edges that become neighbours, when one is inserted or
/// removed, are compared: n log n for n edges however detailed the outline. Edges that only
/// touch (at a shared vertex, or a vertex on another edge) keep their order and are allowed.
struct RegionCrossingCheck {
    /// Where a crossing lies, in world fractions, and the polygon it is in.
    struct Crossing: Sendable, Equatable {
        let polygon: Int32
        let x: Double
        let y: Double
    }

    private static let tolerance = 1e-13
    private let edges: [RegionEdge]
    /// Per polygon, the edges crossing the sweep's height, west to east.
    private var order: [[Int]]
    private var found: Crossing?

    /// The northernmost crossing, nil when there is none.
    /// - Parameters:
    ///   - edges: edges sorted by `y0`.
    ///   - flat: horizontal edges sorted by `y`; one crosses an edge of its polygon that passes
    ///     through its height strictly between its ends.
    static func firstCrossing(in edges: [RegionEdge], flat: [RegionFlatEdge] = []) -> Crossing? {
        var check = RegionCrossingCheck(edges: edges)
        return check.sweep(flats: flat)
    }

    private init(edges: [RegionEdge]) {
        self.edges = edges
        order = Array(repeating: [], count: Int(edges.lazy.map(\.polygon).max() ?? 0) + 1)
    }

    private mutating func sweep(flats: [RegionFlatEdge]) -> Crossing? {
        let ends = edges.indices.sorted { edges[$0].y1 < edges[$1].y1 }
        var nextStart = 0, nextEnd = 0, nextFlat = 0
        while true {
            var height = Double.infinity
            if nextStart < edges.count { height = edges[nextStart].y0 }
            if nextEnd < ends.count { height = min(height, edges[ends[nextEnd]].y1) }
            if nextFlat < flats.count { height = min(height, flats[nextFlat].y) }
            guard height < (found?.y ?? .infinity) else { return found }
            while nextEnd < ends.count, edges[ends[nextEnd]].y1 == height {
                remove(ends[nextEnd], at: height)
                nextEnd += 1
            }
            while nextFlat < flats.count, flats[nextFlat].y == height {
                check(flats[nextFlat])
                nextFlat += 1
            }
            while nextStart < edges.count, edges[nextStart].y0 == height {
                insert(nextStart, at: height)
                nextStart += 1
            }
        }
    }

    /// The first position in `line` whose edge lies east of `x` at `height` (or at `x` and
    /// turning east of `slope` below it).
    private func position(in line: [Int], x: Double, slope: Double, at height: Double) -> Int {
        var low = 0, high = line.count
        while low < high {
            let middle = (low + high) / 2
            let edge = edges[line[middle]]
            let other = edge.x(at: height)
            if other < x || (other == x && edge.slope <= slope) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func insert(_ index: Int, at height: Double) {
        let edge = edges[index], polygon = Int(edge.polygon)
        let at = position(in: order[polygon], x: edge.x0, slope: edge.slope, at: height)
        order[polygon].insert(index, at: at)
        if at > 0 { compare(order[polygon][at - 1], index) }
        if at + 1 < order[polygon].count { compare(index, order[polygon][at + 1]) }
    }

    private mutating func remove(_ index: Int, at height: Double) {
        let polygon = Int(edges[index].polygon)
        var at = position(in: order[polygon], x: edges[index].x1 - 2 * Self.tolerance, slope: -.infinity, at: height)
        while at < order[polygon].count, order[polygon][at] != index, edges[order[polygon][at]].x(at: height) <= edges[index].x1 + 2 * Self.tolerance {
            at += 1
        }
        if at >= order[polygon].count || order[polygon][at] != index {
            guard let anywhere = order[polygon].firstIndex(of: index) else { return }
            at = anywhere
        }
        order[polygon].remove(at: at)
        if at > 0, at < order[polygon].count { compare(order[polygon][at - 1], order[polygon][at]) }
    }

    /// Records where two edges of one polygon cross: their west-to-east order at the top of the
    /// heights both span differs from the order at the bottom.
    private mutating func compare(_ first: Int, _ second: Int) {
        let a = edges[first], b = edges[second]
        let top = max(a.y0, b.y0), bottom = min(a.y1, b.y1)
        guard bottom > top else { return }
        let endsA = (top: a.x(at: top), bottom: a.x(at: bottom)), endsB = (top: b.x(at: top), bottom: b.x(at: bottom))
        let (left, right) = (endsA.top, endsA.bottom) <= (endsB.top, endsB.bottom) ? (endsA, endsB) : (endsB, endsA)
        guard left.bottom > right.bottom + Self.tolerance, left.top < right.top else { return }
        let gapTop = right.top - left.top, gapBottom = left.bottom - right.bottom
        let t = gapTop / (gapTop + gapBottom)
        record(Crossing(polygon: a.polygon, x: left.top + (left.bottom - left.top) * t, y: top + (bottom - top) * t))
    }

    private mutating func check(_ flat: RegionFlatEdge) {
        let line = order[Int(flat.polygon)]
        let at = position(in: line, x: flat.x0 + Self.tolerance, slope: .infinity, at: flat.y)
        guard at < line.count else { return }
        let x = edges[line[at]].x(at: flat.y)
        if x > flat.x0 + Self.tolerance, x < flat.x1 - Self.tolerance { record(Crossing(polygon: flat.polygon, x: x, y: flat.y)) }
    }

    private mutating func record(_ crossing: Crossing) {
        if crossing.y < found?.y ?? .infinity { found = crossing }
    }
}
