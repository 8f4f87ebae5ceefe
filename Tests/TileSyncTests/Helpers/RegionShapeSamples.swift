import Foundation

/// Named region shapes (GeoJSON text) shared by the region tests.
enum RegionShapeSamples {
    static let all: [String: String] = [
        // A star around Berlin with a triangular hole.
        "star with hole": """
            {"type":"Feature","properties":{"name":"star"},"geometry":{"type":"Polygon","coordinates":[
            [[13.40,52.80],[13.52,52.58],[13.81,52.52],[13.55,52.44],[13.63,52.21],[13.40,52.36],[13.17,52.21],
             [13.25,52.44],[12.99,52.52],[13.28,52.58],[13.40,52.80]],
            [[13.33,52.47],[13.47,52.47],[13.40,52.56],[13.33,52.47]]]}}
            """,
        // A sliver 20 m wide and 60 km long, at an angle.
        "thin sliver": """
            {"type":"Polygon","coordinates":[[[8.1000,47.1000],[8.9000,47.4500],[8.9000,47.4502],[8.1000,47.1002],[8.1000,47.1000]]]}
            """,
        // Fiji-like: one island group split at the antimeridian into two parts, as RFC 7946 asks.
        "antimeridian": """
            {"type":"MultiPolygon","coordinates":[
            [[[177.2,-18.4],[180,-18.4],[180,-16.1],[177.2,-16.1],[177.2,-18.4]]],
            [[[-180,-18.4],[-179.3,-18.4],[-179.6,-16.1],[-180,-16.1],[-180,-18.4]]]]}
            """,
        // Reaching both poles: latitudes beyond 85.0511 are clamped to the world's edge.
        "poles": """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[-30.5,80.3],[20.7,80.3],[20.7,89.9],[-30.5,89.9],[-30.5,80.3]]]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[100.3,-90],[140.6,-90],[120.1,-82.7],[100.3,-90]]]}}]}
            """,
        // Two squares touching along an edge and a third touching at a corner, in one collection.
        "touching parts": """
            {"type":"GeometryCollection","geometries":[
            {"type":"Polygon","coordinates":[[[2.05,48.61],[2.61,48.61],[2.61,49.03],[2.05,49.03],[2.05,48.61]]]},
            {"type":"Polygon","coordinates":[[[2.61,48.61],[3.13,48.61],[3.13,49.03],[2.61,49.03],[2.61,48.61]]]},
            {"type":"Polygon","coordinates":[[[3.13,49.03],[3.52,49.03],[3.52,49.31],[3.13,49.31],[3.13,49.03]]]}]}
            """,
    ]
}
