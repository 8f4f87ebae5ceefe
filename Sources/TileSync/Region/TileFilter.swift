/// Which tiles an operation covers: a zoom range and, optionally, a bounding box, a region
/// (`TileRegion`: polygons, corridors), a list of tiles (`TileList`: an expire list) and one part
/// of the tile space (`TileShard`). A tile passes when it passes every part given.
public struct TileFilter: Sendable, Equatable {
    /// Every tile.
    public static let all = TileFilter(uncheckedZooms: 0...TileCoordinate.maxZoom, boundingBox: nil, region: nil, tiles: nil, shard: nil)

    /// Zoom levels allowed.
    public let zooms: ClosedRange<Int>
    /// Tiles must touch this box, when set.
    public let boundingBox: BoundingBox?
    /// Tiles must share area with this region, when set.
    public let region: TileRegion?
    /// Tiles must be in this list, when set.
    public let tiles: TileList?
    /// Tiles must be in this part of the tile space, when set.
    public let shard: TileShard?
    private let rangesByZoom: [[TileRange]]

    /// Creates a filter.
    /// - Throws: `GeographyError.zoomOutOfRange` when the zooms leave 0...30.
    public init(minZoom: Int = 0, maxZoom: Int = TileCoordinate.maxZoom, boundingBox: BoundingBox? = nil,
                region: TileRegion? = nil, tiles: TileList? = nil, shard: TileShard? = nil) throws(GeographyError) {
        guard (0...TileCoordinate.maxZoom).contains(minZoom) else { throw .zoomOutOfRange(minZoom) }
        guard (minZoom...TileCoordinate.maxZoom).contains(maxZoom) else { throw .zoomOutOfRange(maxZoom) }
        self.init(uncheckedZooms: minZoom...maxZoom, boundingBox: boundingBox, region: region, tiles: tiles, shard: shard)
    }

    private init(uncheckedZooms zooms: ClosedRange<Int>, boundingBox: BoundingBox?, region: TileRegion?, tiles: TileList?, shard: TileShard?) {
        let ranges: [[TileRange]] = boundingBox.map { box in
            (0...TileCoordinate.maxZoom).map { z in
                zooms.contains(z) ? ((try? WebMercator.tileRanges(covering: box, zoom: z)) ?? []) : []
            }
        } ?? []
        self.init(uncheckedZooms: zooms, boundingBox: boundingBox, region: region, tiles: tiles, shard: shard.flatMap { $0.count == 1 ? nil : $0 },
                  ranges: ranges)
    }

    private init(uncheckedZooms zooms: ClosedRange<Int>, boundingBox: BoundingBox?, region: TileRegion?, tiles: TileList?, shard: TileShard?,
                 ranges: [[TileRange]]) {
        self.zooms = zooms
        self.boundingBox = boundingBox
        self.region = region
        self.tiles = tiles
        self.shard = shard
        rangesByZoom = ranges
    }

    /// True when the filter lets every tile through.
    public var isEverything: Bool { isZoomRangeOnly && zooms == 0...TileCoordinate.maxZoom }

    /// True when the zoom range alone decides (no box, region, list or shard).
    public var isZoomRangeOnly: Bool { !isSpatial && shard == nil }

    /// True when a box, a region or a list limits where tiles may be.
    public var isSpatial: Bool { boundingBox != nil || region != nil || tiles != nil }

    /// The longitude/latitude extent the box and region allow, nil without either.
    public var spatialBounds: BoundingBox? {
        switch (boundingBox, region?.bounds) {
        case (let box?, let regionBounds?): box.intersection(regionBounds) ?? box
        case (let box?, nil): box
        case (nil, let regionBounds?): regionBounds
        case (nil, nil): nil
        }
    }

    /// The same filter over the whole tile space (what every part's metadata is made from).
    public var withoutShard: TileFilter {
        shard == nil ? self : TileFilter(uncheckedZooms: zooms, boundingBox: boundingBox, region: region, tiles: tiles, shard: nil, ranges: rangesByZoom)
    }

    /// The tile ranges the filter allows at zoom `z` (the whole grid without a box or region;
    /// empty outside the zoom range). A region gives one range per run of columns and band of
    /// rows with the same runs; a list its tiles, runs of rows in a column joined.
    public func ranges(atZoom z: Int) -> [TileRange] {
        guard zooms.contains(z) else { return [] }
        if let tiles {
            let filter = withoutList
            return tiles.columnRuns(zooms: z...z, rowsDescending: false).flatMap { filter.pieces(of: $0) }
        }
        if let region {
            let ranges = region.cover(atZoom: z).ranges
            guard boundingBox != nil else { return ranges }
            return ranges.flatMap { range in rangesByZoom[z].compactMap { range.intersection($0) } }
        }
        if boundingBox == nil { return (try? [TileRange.world(z: z)]) ?? [] }
        return rangesByZoom[z]
    }

    /// Ranges holding every tile the filter allows at zoom `z`, cheap to compute at any zoom:
    /// the box's ranges, the region's and list's extents; for a search that then checks tiles
    /// with `contains`.
    public func searchRanges(atZoom z: Int) -> [TileRange] {
        guard zooms.contains(z) else { return [] }
        var ranges = boundingBox == nil ? ((try? [TileRange.world(z: z)]) ?? []) : rangesByZoom[z]
        if let tiles {
            guard let extent = tiles.extent(atZoom: z) else { return [] }
            ranges = ranges.compactMap { $0.intersection(extent) }
        }
        if let region {
            let last = (1 << z) - 1, border = region.border
            let extent = ((try? WebMercator.tileRanges(covering: region.bounds, zoom: z)) ?? []).map { range in
                let columns = range.columns.count + 2 * border > last ? 0...last
                    : (range.columns.lowerBound - border)...(range.columns.upperBound + border)
                let rows = max(0, range.rows.lowerBound - border)...min(last, range.rows.upperBound + border)
                return TileRange(unchecked: z, columns: columns, rows: rows)
            }
            ranges = ranges.flatMap { range in extent.flatMap { Self.wrapped($0).compactMap { range.intersection($0) } } }
        }
        return ranges
    }

    /// A range whose columns may reach past the antimeridian, as the one or two ranges it covers.
    private static func wrapped(_ range: TileRange) -> [TileRange] {
        let size = 1 << range.z, last = size - 1
        let low = range.columns.lowerBound, high = range.columns.upperBound
        var columns = [max(0, low)...min(last, high)]
        if low < 0 { columns.append((low + size)...last) }
        if high > last { columns.append(0...(high - size)) }
        return columns.map { TileRange(unchecked: range.z, columns: $0, rows: range.rows) }
    }

    /// The parts of `range` that pass the box, region and list (the shard is not applied).
    public func pieces(of range: TileRange) -> [TileRange] {
        guard zooms.contains(range.z) else { return [] }
        var pieces = [range]
        if boundingBox != nil { pieces = rangesByZoom[range.z].compactMap { range.intersection($0) } }
        if let region {
            let cover = region.cover(atZoom: range.z)
            pieces = pieces.flatMap { cover.pieces(of: $0) }
        }
        if let tiles { pieces = Self.columnRuns(pieces.flatMap { tiles.tiles(in: $0) }.sorted { ($0.x, $0.y) < ($1.x, $1.y) }) }
        return pieces
    }

    /// This filter without its list.
    private var withoutList: TileFilter {
        TileFilter(uncheckedZooms: zooms, boundingBox: boundingBox, region: region, tiles: nil, shard: shard, ranges: rangesByZoom)
    }

    /// Tiles sorted by (x, y) as ranges: runs of consecutive rows in one column.
    private static func columnRuns(_ tiles: [TileCoordinate]) -> [TileRange] {
        var runs: [TileRange] = []
        for tile in tiles {
            if let last = runs.last, last.columns.lowerBound == tile.x, last.rows.upperBound + 1 == tile.y {
                runs[runs.count - 1] = TileRange(unchecked: tile.z, columns: tile.x...tile.x, rows: last.rows.lowerBound...tile.y)
            } else {
                runs.append(TileRange(unchecked: tile.z, columns: tile.x...tile.x, rows: tile.y...tile.y))
            }
        }
        return runs
    }

    /// True when the tile passes the filter.
    public func contains(_ coordinate: TileCoordinate) -> Bool {
        guard zooms.contains(coordinate.z) else { return false }
        if let shard, !shard.contains(coordinate) { return false }
        if boundingBox != nil, !rangesByZoom[coordinate.z].contains(where: { $0.contains(coordinate) }) { return false }
        if let region, !region.contains(coordinate) { return false }
        if let tiles, !tiles.contains(coordinate) { return false }
        return true
    }

    /// True when zoom `z` may hold tiles that pass.
    public func allows(zoom z: Int) -> Bool {
        zooms.contains(z) && (boundingBox == nil || !rangesByZoom[z].isEmpty) && (tiles == nil || tiles?.extent(atZoom: z) != nil)
    }

    /// True when column `x` at zoom `z` may hold tiles that pass (lets folder walks prune).
    public func allows(zoom z: Int, column x: Int) -> Bool {
        guard zooms.contains(z) else { return false }
        if boundingBox != nil, !rangesByZoom[z].contains(where: { $0.columns.contains(x) }) { return false }
        if let region, !region.cover(atZoom: z).columnRuns.contains(where: { $0.contains(x) }) { return false }
        if let tiles, !tiles.holdsColumn(x, atZoom: z) { return false }
        return true
    }
}
