/// The shapes of a region file in longitude/latitude degrees, each with the label that names
/// it in messages (`feature 2 of 5 ("park"), polygon 1`).
struct RegionShapes: Sendable {
    /// A longitude/latitude pair in degrees.
    struct Position: Sendable, Equatable {
        let longitude: Double
        let latitude: Double
    }

    /// An outer ring and its holes; every ring closed (first position repeated last).
    struct Polygon: Sendable {
        let label: String
        let rings: [[Position]]
    }

    /// A route (a LineString) or a place (a Point, as a line of one position).
    struct Line: Sendable {
        let label: String
        let positions: [Position]
    }

    var polygons: [Polygon] = []
    var lines: [Line] = []

    var isEmpty: Bool { polygons.isEmpty && lines.isEmpty }
}
