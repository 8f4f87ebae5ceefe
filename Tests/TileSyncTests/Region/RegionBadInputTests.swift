import Foundation
import Testing
@testable import TileSync

@Suite("Regions: bad GeoJSON is refused naming the file and the feature")
struct RegionBadInputTests {
    static let cases: [String: (text: String, message: String)] = [
        "not JSON": ("{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, NaN]]]}", "r.geojson: is not JSON ("),
        "not GeoJSON": ("{\"name\": \"x\"}", "r.geojson: is not GeoJSON: the top level has no \"type\""),
        "an array": ("[1, 2]", "r.geojson: is not GeoJSON: the document is an array, not an object"),
        "empty collection": ("{\"type\":\"FeatureCollection\",\"features\":[]}", "r.geojson: FeatureCollection: has no features: the region is empty"),
        "only null geometries": ("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},\"geometry\":null}]}",
                                 "r.geojson: holds no Polygon, MultiPolygon, LineString or Point: the region is empty"),
        "unclosed ring": ("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"name\":\"park\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,1]]]}}]}",
                          "r.geojson: feature 1 of 1 (\"park\"), Polygon ring 1 (outer): is not closed: it starts at [0, 0] and ends at [0, 1]"),
        "short ring": ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[0,0]]]}",
                       "r.geojson: Polygon ring 1 (outer): has 3 positions; a ring needs at least 4, the first repeated last"),
        "bow tie": ("{\"type\":\"Feature\",\"id\":7,\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[2,2],[2,0],[0,2],[0,0]]]}}",
                    "r.geojson: feature (\"7\"), Polygon: its rings cross themselves or each other near [1, 1.000152]: a polygon's edges may touch, never cross"),
        "hole crossing its ring": ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[3,1],[5,1],[5,2],[3,2],[3,1]]]}",
                                   "r.geojson: Polygon: its rings cross themselves or each other near [4, 2]: a polygon's edges may touch, never cross"),
        "hole outside": ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[5,1],[6,1],[6,2],[5,1]]]}",
                         "r.geojson: Polygon ring 2 (hole): lies outside the polygon's outer ring"),
        "string coordinate": ("{\"type\":\"MultiPolygon\",\"coordinates\":[[[[0,0],[1,0],[1,1],[0,0]]],[[[0,0],[\"1\",0],[1,1],[0,0]]]]}",
                              "r.geojson: MultiPolygon polygon 2 ring 1 (outer): a position holds something other than numbers: [\"1\", 0]"),
        "latitude out of range": ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,91],[0,0]]]}",
                                  "r.geojson: Polygon ring 1 (outer): latitude 91.0 is out of range (-90...90)"),
        "longitude out of range": ("{\"type\":\"LineString\",\"coordinates\":[[0,0],[190,10]]}",
                                   "r.geojson: LineString: longitude 190.0 is out of range (-180...180)"),
        "huge number": ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1e999,0],[1,1],[0,0]]]}", "r.geojson: is not JSON ("),
        "no area": ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[0,1],[0,2],[0,0]]]}",
                    "r.geojson: Polygon ring 1 (outer): encloses no area (its positions lie on one line)"),
        "line without buffer": ("{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}",
                                "r.geojson: LineString: a line or point has no area: give --buffer DISTANCE (e.g. 500m) for the corridor around it"),
        "unknown type": ("{\"type\":\"Circle\",\"coordinates\":[0,0]}", "r.geojson: Circle: is not a GeoJSON geometry type"),
        "deep nesting": (String(repeating: "{\"type\":\"GeometryCollection\",\"geometries\":[", count: 20) + String(repeating: "]}", count: 20),
                         "r.geojson: GeometryCollection member 1, GeometryCollection member 1, GeometryCollection member 1, "),
    ]

    @Test("each refusal has its exact message", arguments: cases.keys.sorted())
    func refused(_ name: String) throws {
        guard let sample = Self.cases[name] else { return }
        do {
            _ = try TileRegion(geoJSON: Data(sample.text.utf8), name: "r.geojson")
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.description.hasPrefix(sample.message), "\(name): \(error.description)")
            if sample.message.hasSuffix("(") || sample.message.hasSuffix(", ") { return }
            #expect(error.description == sample.message)
        }
    }

    @Test("a missing file names it and the reason")
    func missingFile() throws {
        do {
            _ = try TileRegion(geoJSONFile: "/nonexistent/r.geojson")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "/nonexistent/r.geojson: cannot be read (No such file or directory)")
        }
    }

    @Test("distances parse with units and are refused without")
    func distances() throws {
        #expect(try GroundDistance(parsing: "500m").metres == 500)
        #expect(try GroundDistance(parsing: "2km").metres == 2000)
        #expect(try GroundDistance(parsing: "2.5 KM").metres == 2500)
        #expect(try GroundDistance(parsing: "2.5 km").description == "2.5 km")
        for bad in ["500", "-1m", "km", "nanm", "20000km"] {
            #expect(throws: GeographyError.malformedDistance(bad)) { try GroundDistance(parsing: bad) }
        }
    }

    @Test("touching rings are allowed: a hole meeting its ring at a vertex, a spike")
    func touchingAllowed() throws {
        let text = """
            {"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[0,0],[2,1],[1,2],[0,0]]]}
            """
        let region = try TileRegion(geoJSON: Data(text.utf8), name: "r.geojson")
        #expect(region.cover(atZoom: 8).tileCount > 0)
    }
}
