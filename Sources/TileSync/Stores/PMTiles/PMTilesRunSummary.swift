/// Counts, bytes and extents of an archive's tiles that pass a filter, from its directories
/// alone: each run is cut into the squares of tiles it covers (`TileIDSquares`), so the time is
/// that of the directories, never that of the tiles they address (a run of 2^31 tiles costs
/// the same as a run of one). Tiles past zoom 30 are left out, as the tile walk reports them.
enum PMTilesRunSummary {
    /// - Throws: `PMTilesFormatError` for a damaged directory (the walk's checks), `POSIXFileError`.
    static func summary(of archive: PMTilesArchive, filter: TileFilter) throws -> TileSetSummary {
        var summary = TileSetSummary()
        let ranges = PMTilesIDRanges.ranges(for: filter)
        for range in ranges {
            var walk = PMTilesEntryWalk(archive, ids: range, caching: ranges.count > 1)
            while let entry = try walk.next() {
                let ids = max(entry.tileID, range.lowerBound)..<min(entry.endID, range.upperBound)
                TileIDSquares.forEach(in: ids) { square in
                    guard filter.isSpatial else { return summary.add(square, bytesEach: Int(entry.length)) }
                    for cut in filter.pieces(of: square) { summary.add(cut, bytesEach: Int(entry.length)) }
                }
            }
        }
        return summary
    }

    /// The tiles and bytes that pass `filter`; without a box the runs are only clamped and
    /// summed (no squares), which keeps this pass cheap before every conversion.
    /// - Throws: as `summary(of:filter:)`.
    static func amount(of archive: PMTilesArchive, filter: TileFilter) throws -> (tiles: Int, bytes: Int) {
        guard !filter.isSpatial else {
            let summary = try summary(of: archive, filter: filter)
            return (summary.tileCount, summary.byteCount)
        }
        var tiles: UInt64 = 0
        var bytes = 0
        let ranges = PMTilesIDRanges.ranges(for: filter)
        for range in ranges {
            var walk = PMTilesEntryWalk(archive, ids: range, caching: ranges.count > 1)
            while let entry = try walk.next() {
                let count = TileIDSquares.count(in: max(entry.tileID, range.lowerBound)..<min(entry.endID, range.upperBound))
                tiles += count
                let (product, overflow) = Int(clamping: count).multipliedReportingOverflow(by: Int(entry.length))
                let (sum, sumOverflow) = bytes.addingReportingOverflow(product)
                bytes = overflow || sumOverflow ? Int.max : sum
            }
        }
        return (Int(clamping: tiles), bytes)
    }
}
