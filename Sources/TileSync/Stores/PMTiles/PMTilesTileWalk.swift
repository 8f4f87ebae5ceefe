/// The tiles of an archive one by one in tile-ID order, expanding run lengths, with the
/// coordinates that pass a filter: the shared part of the tile and index cursors. Only the
/// tile-ID ranges the filter can pass are walked (`PMTilesIDRanges`). A tile at zoom 31
/// (beyond TileSync's zoom 30) is an invalid tile.
struct PMTilesTileWalk {
    private let archive: PMTilesArchive
    private var entries: PMTilesEntryWalk?
    private let store: String
    private let filter: TileFilter
    private let ranges: [Range<UInt64>]
    private var rangeIndex = 0
    private var upperID: UInt64 = 0
    private(set) var current: PMTilesEntry?
    private var nextID: UInt64 = 0
    private var runEnd: UInt64 = 0

    init(_ archive: PMTilesArchive, filter: TileFilter) {
        self.archive = archive
        store = archive.store
        self.filter = filter
        ranges = PMTilesIDRanges.ranges(for: filter)
    }

    /// The next coordinate and the entry holding its blob; nil at the end.
    /// - Throws: `TileStoreError` `.invalidTile` for a tile past zoom 30 (the walk goes on);
    ///   `PMTilesFormatError` for a damaged directory, `POSIXFileError` (these end it).
    mutating func next() throws -> (coordinate: TileCoordinate, entry: PMTilesEntry)? {
        while true {
            if let current, nextID < runEnd {
                let id = nextID
                nextID += 1
                let (z, x, y) = try TileID.zxy(of: id)
                guard z <= TileCoordinate.maxZoom else {
                    throw TileStoreError(.invalidTile, store: store, item: "tile \(z)/\(x)/\(y) (tile ID \(id))",
                                         message: "zoom \(z) is beyond TileSync's limit of \(TileCoordinate.maxZoom)")
                }
                let coordinate = TileCoordinate(unchecked: z, x, y)
                if filter.isZoomRangeOnly || filter.contains(coordinate) { return (coordinate, current) }
                continue
            }
            if entries == nil {
                guard rangeIndex < ranges.count else { return nil }
                let range = ranges[rangeIndex]
                rangeIndex += 1
                entries = PMTilesEntryWalk(archive, ids: range, caching: ranges.count > 1)
                upperID = range.upperBound
                nextID = range.lowerBound
                current = nil
            }
            guard let entry = try entries?.next() else {
                entries = nil
                continue
            }
            current = entry
            nextID = max(entry.tileID, nextID)
            runEnd = min(entry.endID, upperID)
        }
    }
}
