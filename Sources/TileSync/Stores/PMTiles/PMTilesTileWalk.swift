/// The tiles of an archive one by one in tile-ID order, expanding run lengths, with the
/// coordinates that pass a filter: the shared part of the tile and index cursors. A tile at
/// zoom 31 (beyond TileSync's zoom 30) is an invalid tile.
struct PMTilesTileWalk {
    private var entries: PMTilesEntryWalk
    private let store: String
    private let filter: TileFilter
    private let upperID: UInt64
    private(set) var current: PMTilesEntry?
    private var nextID: UInt64 = 0
    private var runEnd: UInt64 = 0

    init(_ archive: PMTilesArchive, filter: TileFilter) {
        let lower = PMTilesTileID.firstID(ofZoom: filter.zooms.lowerBound)
        // Up to TileSync's highest zoom means every tile: zoom-31 tiles are then walked and
        // reported as invalid, never dropped in silence.
        upperID = filter.zooms.upperBound >= TileCoordinate.maxZoom ? PMTilesTileID.end
            : PMTilesTileID.firstID(ofZoom: filter.zooms.upperBound + 1)
        entries = PMTilesEntryWalk(archive, ids: lower..<upperID)
        store = archive.store
        self.filter = filter
        nextID = lower
    }

    /// The next coordinate and the entry holding its blob; nil at the end.
    /// - Throws: `TileStoreError` `.invalidTile` for a tile past zoom 30 (the walk goes on);
    ///   `PMTilesFormatError` for a damaged directory, `POSIXFileError` (these end it).
    mutating func next() throws -> (coordinate: TileCoordinate, entry: PMTilesEntry)? {
        while true {
            if let current, nextID < runEnd {
                let id = nextID
                nextID += 1
                let (z, x, y) = try PMTilesTileID.zxy(of: id)
                guard z <= TileCoordinate.maxZoom else {
                    throw TileStoreError(.invalidTile, store: store, item: "tile \(z)/\(x)/\(y) (tile ID \(id))",
                                         message: "zoom \(z) is beyond TileSync's limit of \(TileCoordinate.maxZoom)")
                }
                let coordinate = TileCoordinate(unchecked: z, x, y)
                if filter.isZoomRangeOnly || filter.contains(coordinate) { return (coordinate, current) }
                continue
            }
            guard let entry = try entries.next() else { return nil }
            current = entry
            nextID = max(entry.tileID, nextID)
            runEnd = min(entry.endID, upperID)
        }
    }
}
