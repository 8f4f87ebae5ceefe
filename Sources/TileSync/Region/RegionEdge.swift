/// One edge of a region's outline in Web Mercator world fractions (x 0 at -180 to 1 at 180,
/// y 0 at the north edge to 1 at the south), oriented so that `y0 < y1` (horizontal edges are
/// left out: they bound no area a horizontal sweep sees). `polygon` tells which polygon the
/// edge closes: inside and outside are decided per polygon, and polygons are united.
struct RegionEdge: Sendable, Equatable {
    let x0: Double
    let y0: Double
    let x1: Double
    let y1: Double
    let polygon: Int32

    /// The edge from `a` to `b`, nil when it is horizontal.
    init?(from a: (x: Double, y: Double), to b: (x: Double, y: Double), polygon: Int32) {
        guard a.y != b.y else { return nil }
        let (top, bottom) = a.y < b.y ? (a, b) : (b, a)
        x0 = top.x
        y0 = top.y
        x1 = bottom.x
        y1 = bottom.y
        self.polygon = polygon
    }

    /// How far x moves east per unit of height moving south.
    var slope: Double { (x1 - x0) / (y1 - y0) }

    /// The edge's x at height `y` (within `y0...y1`).
    func x(at y: Double) -> Double {
        if y <= y0 { return x0 }
        if y >= y1 { return x1 }
        return x0 + (x1 - x0) * ((y - y0) / (y1 - y0))
    }
}
