import Foundation

/// Web Mercator (EPSG:3857) tile math, using the OpenStreetMap slippy-map formulas.
/// All coordinates are XYZ; longitudes and latitudes are WGS 84 degrees.
public enum WebMercator {
    /// The latitude where the square Web Mercator world ends: atan(sinh(pi)) in degrees.
    public static let maxLatitude = 85.0511287798066

    /// The tile holding a point at zoom `z`. Latitudes beyond +-85.0511 are clamped to the edge
    /// row; longitude 180 falls in the last column.
    /// - Throws: `GeographyError` for a non-finite or out-of-range longitude/latitude or zoom.
    public static func tile(longitude: Double, latitude: Double, zoom z: Int) throws(GeographyError) -> TileCoordinate {
        guard longitude.isFinite, (-180...180).contains(longitude) else { throw .longitudeOutOfRange(longitude) }
        guard latitude.isFinite, (-90...90).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard (0...TileCoordinate.maxZoom).contains(z) else { throw .zoomOutOfRange(z) }
        let size = Double(1 << z)
        let last = (1 << z) - 1
        let x = min(last, max(0, Int((xFraction(longitude) * size).rounded(.down))))
        let y = min(last, max(0, Int((yFraction(latitude) * size).rounded(.down))))
        return TileCoordinate(unchecked: z, x, y)
    }

    /// The longitude/latitude extent of a tile (its north-west corner is `west`, `north`).
    public static func bounds(of tile: TileCoordinate) -> BoundingBox {
        let size = Double(1 << tile.z)
        return BoundingBox(
            uncheckedWest: longitude(x: Double(tile.x) / size),
            south: latitude(y: Double(tile.y + 1) / size),
            east: longitude(x: Double(tile.x + 1) / size),
            north: latitude(y: Double(tile.y) / size))
    }

    /// The tiles at zoom `z` that cover a box: one range, or two when the box crosses the
    /// antimeridian. Tiles that only touch the box's east or south edge are not included.
    /// - Throws: `GeographyError.zoomOutOfRange`.
    public static func tileRanges(covering box: BoundingBox, zoom z: Int) throws(GeographyError) -> [TileRange] {
        guard (0...TileCoordinate.maxZoom).contains(z) else { throw .zoomOutOfRange(z) }
        if box.crossesAntimeridian {
            let westPart = BoundingBox(uncheckedWest: box.west, south: box.south, east: 180, north: box.north)
            let eastPart = BoundingBox(uncheckedWest: -180, south: box.south, east: box.east, north: box.north)
            let west = try tileRanges(covering: westPart, zoom: z), east = try tileRanges(covering: eastPart, zoom: z)
            // At low zooms both parts reach the same columns: one range then, so no tile is counted twice.
            if let w = west.first, let e = east.first, e.columns.upperBound + 1 >= w.columns.lowerBound {
                return [TileRange(unchecked: z, columns: 0...((1 << z) - 1), rows: w.rows)]
            }
            return west + east
        }
        let size = Double(1 << z)
        let last = (1 << z) - 1
        func clamp(_ value: Int) -> Int { min(last, max(0, value)) }
        let minX = clamp(Int((xFraction(box.west) * size).rounded(.down)))
        let maxX = max(minX, clamp(Int((xFraction(box.east) * size).rounded(.up)) - 1))
        let minY = clamp(Int((yFraction(box.north) * size).rounded(.down)))
        let maxY = max(minY, clamp(Int((yFraction(box.south) * size).rounded(.up)) - 1))
        return [TileRange(unchecked: z, columns: minX...maxX, rows: minY...maxY)]
    }

    /// The tile ranges covering a box at every zoom of `zooms`, lowest zoom first.
    /// - Throws: `GeographyError.zoomOutOfRange`.
    public static func tileRanges(covering box: BoundingBox, zooms: ClosedRange<Int>) throws(GeographyError) -> [TileRange] {
        var ranges: [TileRange] = []
        for z in zooms { ranges += try tileRanges(covering: box, zoom: z) }
        return ranges
    }

    /// The highest zoom at which the box fits in the width and height of `tilesAcross` tiles:
    /// at that zoom a map of `tilesAcross x tilesAcross` tiles shows the whole box.
    /// - Throws: `GeographyError.emptySpan` when `tilesAcross < 1`.
    public static func zoom(fitting box: BoundingBox, tilesAcross: Int = 1) throws(GeographyError) -> Int {
        guard tilesAcross >= 1 else { throw .emptySpan }
        let longitudeSpan = box.crossesAntimeridian ? 360 - (box.west - box.east) : box.east - box.west
        let xSpan = longitudeSpan / 360
        let ySpan = yFraction(box.south) - yFraction(box.north)
        return zoom(forFraction: max(xSpan, ySpan) / Double(tilesAcross))
    }

    /// The highest zoom whose tiles are at least `longitudeSpan` degrees wide and at least
    /// `latitudeSpan` degrees tall around `centerLatitude`.
    /// - Throws: `GeographyError.emptySpan` for spans that are not positive and finite, or a
    ///   latitude error.
    public static func zoom(fittingLongitudeSpan longitudeSpan: Double, latitudeSpan: Double,
                            centerLatitude: Double = 0) throws(GeographyError) -> Int {
        guard longitudeSpan.isFinite, latitudeSpan.isFinite, longitudeSpan > 0 || latitudeSpan > 0,
              longitudeSpan >= 0, latitudeSpan >= 0
        else { throw .emptySpan }
        guard centerLatitude.isFinite, (-90...90).contains(centerLatitude) else {
            throw .latitudeOutOfRange(centerLatitude)
        }
        let north = min(90, centerLatitude + latitudeSpan / 2)
        let south = max(-90, centerLatitude - latitudeSpan / 2)
        let xSpan = min(360, longitudeSpan) / 360
        let ySpan = yFraction(south) - yFraction(north)
        return zoom(forFraction: max(xSpan, ySpan))
    }

    private static func zoom(forFraction fraction: Double) -> Int {
        guard fraction > 0 else { return TileCoordinate.maxZoom }
        let inverse = 1 / fraction
        let z = inverse.isFinite ? log2(inverse) : -log2(fraction)
        guard z.isFinite else { return z > 0 ? TileCoordinate.maxZoom : 0 }
        return min(TileCoordinate.maxZoom, max(0, Int(z.rounded(.down))))
    }

    /// Fraction of the world's width west of `longitude` (0 at -180, 1 at 180).
    static func xFraction(_ longitude: Double) -> Double { (longitude + 180) / 360 }

    /// Fraction of the world's height north of `latitude` (0 at the north edge, 1 at the south).
    static func yFraction(_ latitude: Double) -> Double {
        let clamped = min(maxLatitude, max(-maxLatitude, latitude))
        let radians = clamped * .pi / 180
        return (1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2
    }

    static func longitude(x fraction: Double) -> Double { fraction * 360 - 180 }

    static func latitude(y fraction: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * fraction))) * 180 / .pi
    }
}
