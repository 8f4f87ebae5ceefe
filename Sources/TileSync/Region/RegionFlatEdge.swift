/// A horizontal edge of a region's outline in Web Mercator world fractions (`x0 < x1`): it
/// bounds no area a horizontal line crosses, yet it is part of the outline a tile row sees and
/// an edge of its polygon must not pass through it.
struct RegionFlatEdge: Sendable, Equatable {
    let y: Double
    let x0: Double
    let x1: Double
    let polygon: Int32

    /// The edge from `a` to `b`, nil unless it is horizontal with some length.
    init?(from a: (x: Double, y: Double), to b: (x: Double, y: Double), polygon: Int32) {
        guard a.y == b.y, a.x != b.x else { return nil }
        y = a.y
        x0 = min(a.x, b.x)
        x1 = max(a.x, b.x)
        self.polygon = polygon
    }
}
