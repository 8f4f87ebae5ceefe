import Foundation

/// Computes which tiles of a zoom level share area with a region, row by row.
///
/// Within a row, the heights where an edge starts or ends cut the row into slabs; inside a
/// slab the same edges cross it, in the same left-to-right order, and per polygon the space
/// between the 1st and 2nd, 3rd and 4th, ... edge is inside (even-odd, so holes work whatever
/// the rings' winding). Each filled stretch moves linearly through the slab, so the columns it
/// reaches run from the least x of its left edge to the greatest x of its right edge, open at
/// both ends: a tile is taken when its open square meets the polygon's interior, never for
/// touching a border. Polygons are united. A tolerance of about a billionth of a tile absorbs
/// rounding where an edge lies on a tile border.
enum RegionCoverSweep {
    /// The cover of `outline` at zoom `z`, its rows handed to `row` as they are found (ascending).
    static func forEachRow(of outline: RegionOutline, zoom z: Int, _ row: (Int, [ClosedRange<Int>]) -> Void) {
        let edges = outline.edges
        guard !edges.isEmpty else { return }
        let scale = Double(1 << z)
        let lastTile = (1 << z) - 1
        let tolerance = 1e-9 + scale * 1e-15
        func clamp(_ value: Double) -> Int { Int(min(Double(lastTile), max(0, value))) }
        let firstRow = clamp((outline.minY * scale).rounded(.down))
        let lastRow = max(firstRow, clamp((outline.maxY * scale).rounded(.up) - 1))
        var next = 0
        var active: [Int] = []
        var cuts: [Double] = []
        var crossing: [(polygon: Int32, middle: Double, low: Double, high: Double, width: Double)] = []
        var stretches: [ClosedRange<Int>] = []
        for rowIndex in firstRow...lastRow {
            let top = Double(rowIndex) / scale, bottom = Double(rowIndex + 1) / scale
            while next < edges.count, edges[next].y0 < bottom {
                active.append(next)
                next += 1
            }
            active.removeAll { edges[$0].y1 <= top }
            guard !active.isEmpty else { continue }
            cuts.removeAll(keepingCapacity: true)
            cuts.append(top)
            for index in active {
                let edge = edges[index]
                if edge.y0 > top, edge.y0 < bottom { cuts.append(edge.y0) }
                if edge.y1 > top, edge.y1 < bottom { cuts.append(edge.y1) }
            }
            cuts.append(bottom)
            cuts.sort()
            stretches.removeAll(keepingCapacity: true)
            for (a, b) in zip(cuts, cuts.dropFirst()) where (b - a) * scale > tolerance {
                crossing.removeAll(keepingCapacity: true)
                for index in active where edges[index].y0 <= a && edges[index].y1 >= b {
                    let xa = edges[index].x(at: a) * scale, xb = edges[index].x(at: b) * scale
                    crossing.append((edges[index].polygon, (xa + xb) / 2, min(xa, xb), max(xa, xb), xa + xb))
                }
                crossing.sort { ($0.polygon, $0.middle) < ($1.polygon, $1.middle) }
                var index = 0
                while index + 1 < crossing.count {
                    let left = crossing[index], right = crossing[index + 1]
                    guard left.polygon == right.polygon else {
                        index += 1
                        continue
                    }
                    index += 2
                    guard right.width - left.width > tolerance else { continue }
                    let low = Int((left.low + tolerance).rounded(.down)), high = Int((right.high - tolerance).rounded(.up)) - 1
                    let first = max(0, low), last = min(lastTile, high)
                    if first <= last { stretches.append(first...last) }
                }
            }
            if !stretches.isEmpty { row(rowIndex, stretches) }
        }
    }

    /// The whole cover at zoom `z`.
    static func cover(of outline: RegionOutline, zoom z: Int) -> TileRegion.ZoomCover {
        var builder = TileRegion.ZoomCover.Builder(z: z)
        forEachRow(of: outline, zoom: z) { builder.append(row: $0, spans: $1) }
        return builder.finish()
    }
}
