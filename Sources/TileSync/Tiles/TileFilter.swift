/// Which tiles an operation covers: a zoom range and, optionally, a bounding box.
public struct TileFilter: Sendable, Equatable {
    /// Every tile.
    public static let all = TileFilter(uncheckedZooms: 0...TileCoordinate.maxZoom, boundingBox: nil)

    /// Zoom levels allowed.
    public let zooms: ClosedRange<Int>
    /// Tiles must touch this box, when set.
    public let boundingBox: BoundingBox?
    private let rangesByZoom: [[TileRange]]

    /// Creates a filter.
    /// - Throws: `GeographyError.zoomOutOfRange` when the zooms leave 0...30.
    public init(minZoom: Int = 0, maxZoom: Int = TileCoordinate.maxZoom,
                boundingBox: BoundingBox? = nil) throws(GeographyError) {
        guard (0...TileCoordinate.maxZoom).contains(minZoom) else { throw .zoomOutOfRange(minZoom) }
        guard (minZoom...TileCoordinate.maxZoom).contains(maxZoom) else { throw .zoomOutOfRange(maxZoom) }
        self.init(uncheckedZooms: minZoom...maxZoom, boundingBox: boundingBox)
    }

    private init(uncheckedZooms zooms: ClosedRange<Int>, boundingBox: BoundingBox?) {
        self.zooms = zooms
        self.boundingBox = boundingBox
        if let boundingBox {
            rangesByZoom = (0...TileCoordinate.maxZoom).map { z in
                zooms.contains(z) ? ((try? WebMercator.tileRanges(covering: boundingBox, zoom: z)) ?? []) : []
            }
        } else {
            rangesByZoom = []
        }
    }

    /// True when the filter lets every tile through.
    public var isEverything: Bool { boundingBox == nil && zooms == 0...TileCoordinate.maxZoom }

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
