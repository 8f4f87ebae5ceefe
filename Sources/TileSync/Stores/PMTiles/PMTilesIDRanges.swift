/// The tile IDs a filter can pass, as sorted, disjoint ranges: what a walk of an archive visits,
/// so that a small box or one shard of a planet reads only the directories and tiles there
/// (locally and, above all, over range requests).
///
/// A box at one zoom is cut along the quadtree: an aligned square of tiles is one run of tile
/// IDs on the Hilbert curve, so squares inside the box are whole ranges, squares across its
/// edge are cut again, down to single tiles or until a zoom has `cellsPerZoom` edge squares
/// (then those are taken whole and the per-tile filter drops the extra tiles). A shard keeps
/// its part of each zoom's curve.
enum PMTilesIDRanges {
    /// Edge squares cut at most per zoom and box.
    static let cellsPerZoom = 4096

    /// The ranges for `filter`; one range from the first zoom's first ID for a zoom range
    /// alone (to `TileID.end` when it goes up to TileSync's last zoom, so tiles beyond it
    /// are seen and reported).
    static func ranges(for filter: TileFilter) -> [Range<UInt64>] {
        let lower = TileID.firstID(ofZoom: filter.zooms.lowerBound)
        if filter.isZoomRangeOnly {
            let upper = filter.zooms.upperBound >= TileCoordinate.maxZoom ? TileID.end
                : TileID.firstID(ofZoom: filter.zooms.upperBound + 1)
            return [lower..<upper]
        }
        var all: [Range<UInt64>] = []
        for z in filter.zooms {
            let first = TileID.firstID(ofZoom: z)
            var zoomRanges: [Range<UInt64>] = []
            if !filter.isSpatial {
                zoomRanges = [first..<TileID.firstID(ofZoom: z + 1)]
            } else if let region = filter.region, filter.boundingBox == nil, Self.coversRegionExactly(filter, zoom: z) {
                let cover = region.cover(atZoom: z)
                if let extent = cover.boundingRange {
                    zoomRanges = cells(covering: extent, first: first) { columns, rows in
                        let range = TileRange(unchecked: z, columns: columns, rows: rows)
                        let count = cover.tileCount(in: range)
                        return (count > 0, count == range.count)
                    }
                }
            } else {
                for range in filter.searchRanges(atZoom: z) { zoomRanges += cells(covering: range, first: first) }
            }
            if let shard = filter.shard {
                let positions = shard.positions(atZoom: z)
                let part = (first + positions.lowerBound)..<(first + positions.upperBound)
                zoomRanges = zoomRanges.compactMap { range in
                    let cut = range.clamped(to: part)
                    return cut.isEmpty ? nil : cut
                }
            }
            all += zoomRanges
        }
        return merged(all)
    }

    /// Sorts ranges and joins those that touch or overlap.
    static func merged(_ ranges: [Range<UInt64>]) -> [Range<UInt64>] {
        var result: [Range<UInt64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// Rows of a region's extent up to which its exact cover is computed to pick ranges; deeper
    /// zooms use the extent, and the per-tile filter drops the rest.
    static let exactCoverRows = 1 << 16

    private static func coversRegionExactly(_ filter: TileFilter, zoom z: Int) -> Bool {
        filter.searchRanges(atZoom: z).reduce(0) { $0 + $1.rows.count } <= exactCoverRows
    }

    private static func cells(covering box: TileRange, first: UInt64) -> [Range<UInt64>] {
        cells(covering: box, first: first) { columns, rows in
            let overlaps = columns.overlaps(box.columns) && rows.overlaps(box.rows)
            let inside = box.columns.lowerBound <= columns.lowerBound && columns.upperBound <= box.columns.upperBound
                && box.rows.lowerBound <= rows.lowerBound && rows.upperBound <= box.rows.upperBound
            return (overlaps, inside)
        }
    }

    /// Cuts the quadtree squares over `box` until each is wholly allowed, not allowed at all
    /// (left out) or the cut budget is spent; `classify` tells for a square whether any and
    /// whether all of its tiles are allowed.
    private static func cells(covering box: TileRange, first: UInt64,
                              classify: (ClosedRange<Int>, ClosedRange<Int>) -> (overlaps: Bool, inside: Bool)) -> [Range<UInt64>] {
        let z = box.z
        var found: [Range<UInt64>] = []
        var edge: [(x: Int, y: Int)] = [(0, 0)]
        for level in 0...z {
            let shift = z - level
            var next: [(x: Int, y: Int)] = []
            let mayCut = level < z && edge.count * 4 <= cellsPerZoom
            for cell in edge {
                let columns = (cell.x << shift)...(((cell.x + 1) << shift) - 1)
                let rows = (cell.y << shift)...(((cell.y + 1) << shift) - 1)
                guard columns.overlaps(box.columns), rows.overlaps(box.rows) else { continue }
                let (overlaps, inside) = classify(columns, rows)
                guard overlaps else { continue }
                if inside || !mayCut {
                    let size = UInt64(1) << (2 * UInt64(shift))
                    let corner = TileID.id(of: TileCoordinate(unchecked: z, columns.lowerBound, rows.lowerBound)) - first
                    let start = first + corner / size * size
                    found.append(start..<(start + size))
                } else {
                    next += [(2 * cell.x, 2 * cell.y), (2 * cell.x + 1, 2 * cell.y), (2 * cell.x, 2 * cell.y + 1), (2 * cell.x + 1, 2 * cell.y + 1)]
                }
            }
            if next.isEmpty { break }
            edge = next
        }
        return found
    }
}
