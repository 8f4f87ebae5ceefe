/// Computes which tiles of a zoom level share area with a region, row by row.
///
/// A tile is taken when its open square meets a polygon's interior, never for touching a
/// border; polygons are united, and inside is decided per polygon by the even-odd rule (holes
/// work whatever the rings' winding). Within a row, each connected piece of a polygon's
/// interior reaches from the least to the greatest x of its boundary there, and that boundary
/// is made of the outline's edges clipped to the row, its horizontal edges, and the stretches
/// of the row's top and bottom lines that are inside. So a row's columns are those that each of
/// these pieces reaches: every edge is visited once per row it crosses and each line's
/// crossings are sorted, so the cost grows with the vertices plus the rows they cross, never
/// with vertices squared. A tolerance of about a billionth of a tile (the row shrunk by it at
/// top and bottom, every x range by it at both ends) absorbs rounding where an edge lies on a
/// tile border.
enum RegionCoverSweep {
    /// The cover of `outline` at zoom `z`, its rows handed to `row` as they are found (ascending).
    static func forEachRow(of outline: RegionOutline, zoom z: Int, _ row: (Int, [ClosedRange<Int>]) -> Void) {
        let edges = outline.edges, flats = outline.flats
        guard !edges.isEmpty else { return }
        let scale = Double(1 << z)
        let lastTile = (1 << z) - 1
        let tolerance = 1e-9 + scale * 1e-15
        let margin = tolerance / scale
        func clamp(_ value: Double) -> Int { Int(min(Double(lastTile), max(0, value))) }
        let firstRow = clamp((outline.minY * scale).rounded(.down))
        let lastRow = max(firstRow, clamp((outline.maxY * scale).rounded(.up) - 1))
        var nextEdge = 0, nextFlat = 0
        var active: [Int] = []
        var marks = RegionColumnMarks(columns: lastTile + 1)
        var crossings: [(polygon: Int32, x: Double)] = []
        func mark(_ west: Double, _ east: Double) {
            marks.mark(Int((west * scale + tolerance).rounded(.down)), Int((east * scale - tolerance).rounded(.up)) - 1)
        }
        for rowIndex in firstRow...lastRow {
            let top = Double(rowIndex) / scale + margin, bottom = Double(rowIndex + 1) / scale - margin
            while nextEdge < edges.count, edges[nextEdge].y0 < bottom {
                active.append(nextEdge)
                nextEdge += 1
            }
            active.removeAll { edges[$0].y1 <= top }
            while nextFlat < flats.count, flats[nextFlat].y <= top { nextFlat += 1 }
            var flat = nextFlat
            while flat < flats.count, flats[flat].y < bottom {
                mark(flats[flat].x0, flats[flat].x1)
                flat += 1
            }
            for index in active {
                let edge = edges[index]
                let from = max(edge.y0, top), to = min(edge.y1, bottom)
                guard from < to else { continue }
                let xFrom = edge.x(at: from), xTo = edge.x(at: to)
                mark(min(xFrom, xTo), max(xFrom, xTo))
            }
            forEachInsideStretch(of: edges, active: active, at: top, justBelow: true, crossings: &crossings, mark)
            forEachInsideStretch(of: edges, active: active, at: bottom, justBelow: false, crossings: &crossings, mark)
            if !marks.isEmpty { row(rowIndex, marks.takeRuns()) }
        }
    }

    /// Hands `body` the stretches of the line at `height` that are inside a polygon, just below
    /// the line or just above it (even-odd per polygon); `crossings` is scratch space.
    private static func forEachInsideStretch(of edges: [RegionEdge], active: [Int], at height: Double, justBelow: Bool,
                                             crossings: inout [(polygon: Int32, x: Double)], _ body: (Double, Double) -> Void) {
        crossings.removeAll(keepingCapacity: true)
        for index in active {
            let edge = edges[index]
            let crosses = justBelow ? edge.y0 <= height && height < edge.y1 : edge.y0 < height && height <= edge.y1
            if crosses { crossings.append((edge.polygon, edge.x(at: height))) }
        }
        crossings.sort { ($0.polygon, $0.x) < ($1.polygon, $1.x) }
        var index = 0
        while index + 1 < crossings.count {
            guard crossings[index].polygon == crossings[index + 1].polygon else {
                index += 1
                continue
            }
            body(crossings[index].x, crossings[index + 1].x)
            index += 2
        }
    }

    /// The whole cover at zoom `z`.
    static func cover(of outline: RegionOutline, zoom z: Int) -> TileRegion.ZoomCover {
        var builder = TileRegion.ZoomCover.Builder(z: z)
        forEachRow(of: outline, zoom: z) { builder.append(row: $0, spans: $1) }
        return builder.finish()
    }
}
