/// The tiles a read of a tile server asks for, in order: zoom by zoom, each zoom's ranges (a
/// region's bands of column runs, a box, or the whole grid), column-major within a range,
/// checked against the filter (the shard). Nothing is listed in memory.
struct TileServerPlan: Sequence {
    let filter: TileFilter

    func makeIterator() -> AnyIterator<TileCoordinate> {
        var zooms = filter.zooms.makeIterator()
        var ranges: IndexingIterator<[TileRange]> = [TileRange]().makeIterator()
        var tiles: AnyIterator<TileCoordinate>?
        let filter = filter
        return AnyIterator {
            while true {
                if let tile = tiles?.next() {
                    if filter.shard == nil || filter.contains(tile) { return tile }
                    continue
                }
                if let range = ranges.next() {
                    tiles = range.makeIterator()
                    continue
                }
                guard let z = zooms.next() else { return nil }
                ranges = filter.ranges(atZoom: z).makeIterator()
            }
        }
    }

    /// Tiles in the plan, counted zoom by zoom until past `limit` (so a deep zoom beyond the
    /// limit is never computed); `complete` is false when the count stopped there.
    func count(upTo limit: Int) -> (tiles: Int, complete: Bool) {
        var count = 0
        for z in filter.zooms {
            if count > limit { return (count, false) }
            if filter.shard == nil {
                let (sum, overflow) = count.addingReportingOverflow(filter.ranges(atZoom: z).reduce(0) { $0 &+ $1.count })
                count = overflow ? Int.max : sum
            } else {
                for range in filter.ranges(atZoom: z) {
                    for tile in range where filter.contains(tile) {
                        count += 1
                        if count > limit { return (count, false) }
                    }
                }
            }
        }
        return (count, true)
    }
}
