import Foundation

/// A longitude/latitude rectangle in degrees (WGS 84), `west,south,east,north` as in MBTiles
/// `bounds` metadata. `west > east` means the box crosses the antimeridian.
public struct BoundingBox: Hashable, Sendable, CustomStringConvertible {
    /// The whole Web Mercator world.
    public static let world = BoundingBox(
        uncheckedWest: -180, south: -WebMercator.maxLatitude, east: 180, north: WebMercator.maxLatitude)

    /// Western longitude in degrees.
    public let west: Double
    /// Southern latitude in degrees.
    public let south: Double
    /// Eastern longitude in degrees (less than `west` across the antimeridian).
    public let east: Double
    /// Northern latitude in degrees.
    public let north: Double

    /// Creates a box.
    /// - Throws: `GeographyError` when a value is not finite, a longitude is outside -180...180,
    ///   a latitude outside -90...90, or `south > north`.
    public init(west: Double, south: Double, east: Double, north: Double) throws(GeographyError) {
        for longitude in [west, east] {
            guard longitude.isFinite, (-180...180).contains(longitude) else {
                throw .longitudeOutOfRange(longitude)
            }
        }
        for latitude in [south, north] {
            guard latitude.isFinite, (-90...90).contains(latitude) else {
                throw .latitudeOutOfRange(latitude)
            }
        }
        guard south <= north else { throw .southAboveNorth(south: south, north: north) }
        self.init(uncheckedWest: west, south: south, east: east, north: north)
    }

    /// Parses `W,S,E,N` (the `--bbox` option and the MBTiles `bounds` value).
    /// - Throws: `GeographyError.malformedBoundingBox` or a range error.
    public init(parsing text: String) throws(GeographyError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let west = parts[0], let south = parts[1],
              let east = parts[2], let north = parts[3]
        else { throw .malformedBoundingBox(text) }
        try self.init(west: west, south: south, east: east, north: north)
    }

    init(uncheckedWest west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// True when the box crosses the antimeridian (`west > east`).
    public var crossesAntimeridian: Bool { west > east }

    /// The smallest box holding both (a box crossing the antimeridian is widened to the world's width).
    public func union(_ other: BoundingBox) -> BoundingBox {
        guard !crossesAntimeridian, !other.crossesAntimeridian else {
            return BoundingBox(uncheckedWest: -180, south: min(south, other.south),
                               east: 180, north: max(north, other.north))
        }
        return BoundingBox(uncheckedWest: min(west, other.west), south: min(south, other.south),
                           east: max(east, other.east), north: max(north, other.north))
    }

    /// The overlap of two boxes that do not cross the antimeridian, or nil when they are disjoint.
    public func intersection(_ other: BoundingBox) -> BoundingBox? {
        guard !crossesAntimeridian, !other.crossesAntimeridian else { return other }
        let box = BoundingBox(uncheckedWest: max(west, other.west), south: max(south, other.south),
                              east: min(east, other.east), north: min(north, other.north))
        return box.west <= box.east && box.south <= box.north ? box : nil
    }

    /// `W,S,E,N` with at most 6 decimals, the MBTiles `bounds` form.
    public var description: String {
        [west, south, east, north].map(DegreeText.format).joined(separator: ",")
    }
}
