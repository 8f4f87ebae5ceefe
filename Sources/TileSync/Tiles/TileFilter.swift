/// Which tiles an operation covers: a zoom range and, optionally, a bounding box and one part
/// of the tile space (`TileShard`).
public struct TileFilter: Sendable, Equatable {
    /// Every tile.
    public static let all = TileFilter(uncheckedZooms: 0...TileCoordinate.maxZoom, boundingBox: nil, shard: nil)

    /// Zoom levels allowed.
    public let zooms: ClosedRange<Int>
    /// Tiles must touch this box, when set.
    public let boundingBox: BoundingBox?
    /// Tiles must be in this part of the tile space, when set.
    public let shard: TileShard?
    private let rangesByZoom: [[TileRange]]

    /// Creates a filter.
    /// - Throws: `GeographyError.zoomOutOfRange` when the zooms leave 0...30.
    public init(minZoom: Int = 0, maxZoom: Int = TileCoordinate.maxZoom,
                boundingBox: BoundingBox? = nil, shard: TileShard? = nil) throws(GeographyError) {
        guard (0...TileCoordinate.maxZoom).contains(minZoom) else { throw .zoomOutOfRange(minZoom) }
        guard (minZoom...TileCoordinate.maxZoom).contains(maxZoom) else { throw .zoomOutOfRange(maxZoom) }
        self.init(uncheckedZooms: minZoom...maxZoom, boundingBox: boundingBox, shard: shard)
    }

    private init(uncheckedZooms zooms: ClosedRange<Int>, boundingBox: BoundingBox?, shard: TileShard?) {
        self.zooms = zooms
        self.boundingBox = boundingBox
        self.shard = shard.flatMap { $0.count == 1 ? nil : $0 }
        if let boundingBox {
            rangesByZoom = (0...TileCoordinate.maxZoom).map { z in
                zooms.contains(z) ? ((try? WebMercator.tileRanges(covering: boundingBox, zoom: z)) ?? []) : []
            }
        } else {
            rangesByZoom = []
        }
    }

    /// True when the filter lets every tile through.
    public var isEverything: Bool { boundingBox == nil && shard == nil && zooms == 0...TileCoordinate.maxZoom }

    /// True when the zoom range alone decides (no box, no shard).
    public var isZoomRangeOnly: Bool { boundingBox == nil && shard == nil }

    /// The same filter over the whole tile space (what every part's metadata is made from).
    public var withoutShard: TileFilter {
        shard == nil ? self : TileFilter(uncheckedZooms: zooms, boundingBox: boundingBox, shard: nil, ranges: rangesByZoom)
    }

    private init(uncheckedZooms zooms: ClosedRange<Int>, boundingBox: BoundingBox?, shard: TileShard?, ranges: [[TileRange]]) {
        self.zooms = zooms
        self.boundingBox = boundingBox
        self.shard = shard
        rangesByZoom = ranges
    }

    /// The tile ranges the filter allows at zoom `z` (the whole grid without a box; empty
    /// outside the zoom range).
    public func ranges(atZoom z: Int) -> [TileRange] {
        guard zooms.contains(z) else { return [] }
        if boundingBox == nil { return (try? [TileRange.world(z: z)]) ?? [] }
        return rangesByZoom[z]
    }

    /// True when the tile passes the filter.
    public func contains(_ coordinate: TileCoordinate) -> Bool {
        guard zooms.contains(coordinate.z) else { return false }
        if let shard, !shard.contains(coordinate) { return false }
        guard boundingBox != nil else { return true }
        return rangesByZoom[coordinate.z].contains { $0.contains(coordinate) }
    }

    /// True when zoom `z` may hold tiles that pass.
    public func allows(zoom z: Int) -> Bool { zooms.contains(z) && (boundingBox == nil || !rangesByZoom[z].isEmpty) }

    /// True when column `x` at zoom `z` may hold tiles that pass (lets folder walks prune).
    public func allows(zoom z: Int, column x: Int) -> Bool {
        guard zooms.contains(z) else { return false }
        guard boundingBox != nil else { return true }
        return rangesByZoom[z].contains { $0.columns.contains(x) }
    }
}
