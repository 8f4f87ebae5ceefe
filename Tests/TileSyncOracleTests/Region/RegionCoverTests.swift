import Foundation
import Testing
@testable import TileSync

/// An independent cover made by shapely (Tests/Tools/region-cover-oracle.py).
enum RegionOracle {
    static let available: Bool = (try? PythonPMTiles.run(["-c", "import shapely"]))?.status == 0
    static let missingMessage: Comment = "python3 with shapely not found (pip install shapely): region oracle tests SKIPPED"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tools/region-cover-oracle.py").path

    /// The oracle's `z/x/y` lines for each of `zooms` (sorted within a zoom), from one run.
    static func polygonTiles(_ file: String, zooms: [Int]) throws -> [Int: [String]] {
        var tiles: [Int: [String]] = [:]
        for (z, line) in try lines(["polygons", file], zooms: zooms) { tiles[z, default: []].append(String(line)) }
        return tiles
    }

    /// For each of `zooms`, the tiles within 1.2 x `metres` of the lines, with their ground
    /// distance in metres, from one run.
    static func corridorTiles(_ file: String, zooms: [Int], metres: Double) throws -> [Int: [String: Double]] {
        var tiles: [Int: [String: Double]] = [:]
        for (z, line) in try lines(["corridor", file], zooms: zooms, then: [String(metres)]) {
            let parts = line.split(separator: " ")
            if parts.count == 2, let distance = Double(parts[1]) { tiles[z, default: [:]][String(parts[0])] = distance }
        }
        return tiles
    }

    /// The oracle's output lines for `zooms` in one run, each with the zoom its `z/x/y` starts with.
    private static func lines(_ arguments: [String], zooms: [Int], then more: [String] = []) throws -> [(Int, Substring)] {
        let result = try PythonPMTiles.run([script] + arguments + [zooms.map(String.init).joined(separator: ",")] + more)
        #expect(result.status == 0, "the oracle failed: \(arguments.joined(separator: " "))")
        return result.stdout.split(separator: "\n").compactMap { line in Int(line.prefix { $0 != "/" }).map { ($0, line) } }
    }
}

@Suite("Regions: which tiles a polygon or corridor covers")
struct RegionCoverTests {
    /// The tiles of a cover as `z/x/y`, sorted as the oracle sorts them.
    static func tiles(_ cover: TileRegion.ZoomCover) -> [String] {
        cover.ranges.flatMap { range in range.map { "\($0)" } }.sorted()
    }

    static func region(_ name: String, buffer: GroundDistance? = nil, border: Int = 0) throws -> TileRegion {
        try TileRegion(geoJSON: Data((RegionShapeSamples.all[name] ?? "").utf8), name: name, buffer: buffer, border: border)
    }

    @Test("a polygon on tile borders takes the tiles inside, not those it touches")
    func tileAlignedSquare() throws {
        // Exactly tile 2/1/1: longitudes -90...0, latitudes 0...66.513 (the row's edges).
        let north = WebMercator.latitude(y: 0.25)
        let text = """
            {"type":"Polygon","coordinates":[[[-90,0],[0,0],[0,\(north)],[-90,\(north)],[-90,0]]]}
            """
        let region = try TileRegion(geoJSON: Data(text.utf8), name: "square")
        #expect(Self.tiles(region.cover(atZoom: 0)) == ["0/0/0"])
        #expect(Self.tiles(region.cover(atZoom: 1)) == ["1/0/0"])
        #expect(Self.tiles(region.cover(atZoom: 2)) == ["2/1/1"])
        #expect(Self.tiles(region.cover(atZoom: 3)) == ["3/2/2", "3/2/3", "3/3/2", "3/3/3"])
        #expect(region.cover(atZoom: 12).tileCount == 1024 * 1024)
        #expect(region.cover(atZoom: 12).ranges == [try TileRange(z: 12, columns: 1024...2047, rows: 1024...2047)])
        let grown = try TileRegion(geoJSON: Data(text.utf8), name: "square", border: 1)
        #expect(Self.tiles(grown.cover(atZoom: 2)) == ["2/0/0", "2/0/1", "2/0/2", "2/1/0", "2/1/1", "2/1/2", "2/2/0", "2/2/1", "2/2/2"])
        #expect(region.bounds.description == "-90,0,0,66.51326")
    }

    @Test("a triangle's cover, counted by hand")
    func triangle() throws {
        // In tile units at zoom 3: (0.5,0.5), (3.5,0.5), (0.5,3.5): the diagonal x + y = 4 runs through tile corners.
        func position(_ x: Double, _ y: Double) -> String {
            "[\(WebMercator.longitude(x: x / 8)),\(WebMercator.latitude(y: y / 8))]"
        }
        let text = "{\"type\":\"Polygon\",\"coordinates\":[[\(position(0.5, 0.5)),\(position(3.5, 0.5)),\(position(0.5, 3.5)),\(position(0.5, 0.5))]]}"
        let region = try TileRegion(geoJSON: Data(text.utf8), name: "triangle")
        // Row 0 reaches x 3.5, row 1 x 3, row 2 x 2, row 3 x 1: a run ends before the tile its edge only touches.
        #expect(region.cover(atZoom: 3).columns(inRow: 0) == [0...3])
        #expect(region.cover(atZoom: 3).columns(inRow: 1) == [0...2])
        #expect(region.cover(atZoom: 3).columns(inRow: 2) == [0...1])
        #expect(region.cover(atZoom: 3).columns(inRow: 3) == [0...0])
        #expect(region.cover(atZoom: 3).tileCount == 10)
    }

    @Test("covers equal shapely's on holes, slivers, the antimeridian, the poles and touching parts",
          .enabled(if: RegionOracle.available, RegionOracle.missingMessage),
          arguments: ["star with hole", "thin sliver", "antimeridian", "poles", "touching parts"])
    func againstShapely(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("region.geojson")
        try Data((RegionShapeSamples.all[name] ?? "").utf8).write(to: URL(fileURLWithPath: file))
        let region = try TileRegion(geoJSONFile: file)
        let zooms = name == "antimeridian" || name == "poles" ? 2...9 : 6...13
        var compared = 0
        let oracle = try RegionOracle.polygonTiles(file, zooms: Array(zooms))
        for z in zooms {
            let expected = oracle[z] ?? []
            let ours = Self.tiles(region.cover(atZoom: z))
            #expect(ours == expected, "\(name) at zoom \(z): \(Set(ours).subtracting(expected).sorted().prefix(5)) extra, \(Set(expected).subtracting(ours).sorted().prefix(5)) missing")
            #expect(region.tileCount(atZoom: z) == expected.count)
            compared += expected.count
        }
        #expect(compared > 40)
    }

    @Test("a route corridor holds every tile within the distance and none beyond 3% more",
          .enabled(if: RegionOracle.available, RegionOracle.missingMessage))
    func corridorAgainstShapely() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("route.geojson")
        // A winding route from Munich toward Salzburg, with a dense stretch (GPS-like points every ~20 m).
        var points = [[11.575, 48.137], [11.71, 48.05], [11.93, 47.98], [12.12, 47.86], [12.47, 47.86], [12.80, 47.80], [13.04, 47.81]]
        for step in 0..<200 { points.insert([11.575 + 0.0003 * Double(step), 48.137 - 0.0002 * Double(step)], at: 1 + step) }
        let text = "{\"type\":\"LineString\",\"coordinates\":[\(points.map { "[\($0[0]),\($0[1])]" }.joined(separator: ","))]}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let metres = 2000.0
        let region = try TileRegion(geoJSONFile: file, buffer: try GroundDistance(metres: metres))
        var checked = 0
        let oracles = try RegionOracle.corridorTiles(file, zooms: [9, 11, 13], metres: metres)
        for z in [9, 11, 13] {
            let oracle = oracles[z] ?? [:]
            let ours = Set(Self.tiles(region.cover(atZoom: z)))
            let mustHave = Set(oracle.filter { $0.value < metres }.keys)
            let mayHave = Set(oracle.filter { $0.value < metres * 1.03 }.keys)
            #expect(mustHave.isSubset(of: ours), "zoom \(z): missing \(mustHave.subtracting(ours).sorted().prefix(5))")
            #expect(ours.isSubset(of: mayHave), "zoom \(z): too far \(ours.subtracting(mayHave).sorted().prefix(5))")
            checked += mustHave.count
        }
        #expect(checked > 100)
    }

    @Test("a place's circle continues across the antimeridian; a route's corridor reaches both sides of a meridian it follows")
    func circleAcrossAntimeridian() throws {
        let place = try TileRegion(geoJSON: Data(#"{"type":"Point","coordinates":[179.99,0.5]}"#.utf8), name: "p",
                                   buffer: try GroundDistance(parsing: "10km"))
        // 10 km is 0.09 degrees at the equator: from 179.9 across to -179.92.
        #expect(place.cover(atZoom: 8).columnRuns == [0...0, 255...255])
        #expect(place.cover(atZoom: 12).columnRuns == [0...0, 4094...4095])
        #expect(place.bounds.west == -180 && place.bounds.east == 180)
        let meridian = try TileRegion(geoJSON: Data(#"{"type":"LineString","coordinates":[[0,10],[0,20]]}"#.utf8), name: "m",
                                      buffer: try GroundDistance(parsing: "1km"))
        #expect(meridian.cover(atZoom: 10).columnRuns == [511...512])
        #expect(meridian.cover(atZoom: 10).boundingRange?.rows == (try WebMercator.tile(longitude: 0, latitude: 20.009, zoom: 10).y)...(try WebMercator.tile(longitude: 0, latitude: 9.991, zoom: 10).y))
    }

    @Test("a border adds whole tiles around the cover, across the antimeridian")
    func border() throws {
        let plain = try Self.region("antimeridian")
        let grown = try Self.region("antimeridian", border: 2)
        for z in [3, 6, 8] {
            let cover = plain.cover(atZoom: z), last = (1 << z) - 1
            var expected = Set<String>()
            for range in cover.ranges {
                for tile in range {
                    for dx in -2...2 {
                        for dy in -2...2 where (0...last).contains(tile.y + dy) {
                            expected.insert("\(z)/\((tile.x + dx + last + 1) % (last + 1))/\(tile.y + dy)")
                        }
                    }
                }
            }
            #expect(Self.tiles(grown.cover(atZoom: z)) == expected.sorted())
        }
        #expect(grown.cover(atZoom: 8).columnRuns.first?.lowerBound == 0)
        #expect(grown.cover(atZoom: 8).columnRuns.last?.upperBound == 255)
    }

    @Test("a country at zoom 20 costs memory of its outline: row runs, not tiles")
    func deepZoomIsOutline() throws {
        let text = """
            {"type":"Polygon","coordinates":[[[5.9,47.3],[15.0,47.3],[15.0,55.0],[10.0,54.2],[5.9,55.0],[5.9,47.3]]]}
            """
        let region = try TileRegion(geoJSON: Data(text.utf8), name: "germany-ish")
        let cover = region.cover(atZoom: 20)
        #expect(cover.tileCount > 500_000_000)
        #expect(cover.rowCount < 40_000)
        #expect(region.tileCount(atZoom: 22) > 8_000_000_000)
        let filter = try TileFilter(minZoom: 0, maxZoom: 20, region: region)
        #expect(filter.contains(try WebMercator.tile(longitude: 10, latitude: 50, zoom: 20)))
        #expect(!filter.contains(try WebMercator.tile(longitude: 10, latitude: 54.9, zoom: 20)))
        #expect(filter.contains(try WebMercator.tile(longitude: 6.0, latitude: 54.9, zoom: 20)))
    }
}

@Suite("Regions: archives read only what a region touches")
struct RegionArchiveRangeTests {
    @Test("PMTiles tile-ID ranges hold every covered tile and few others, fewer than the region's box")
    func pmtilesRanges() throws {
        let region = try RegionCoverTests.region("star with hole")
        let filter = try TileFilter(minZoom: 10, maxZoom: 14, region: region)
        let ranges = PMTilesIDRanges.ranges(for: filter)
        var covered: UInt64 = 0
        for z in 10...14 {
            for range in region.cover(atZoom: z).ranges {
                for tile in range {
                    let id = TileID.id(of: tile)
                    #expect(ranges.contains { $0.contains(id) }, "\(tile) is not in the ranges")
                }
                covered += UInt64(range.count)
            }
        }
        let inRanges = ranges.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        let box = try TileFilter(minZoom: 10, maxZoom: 14, boundingBox: region.bounds)
        let inBox = PMTilesIDRanges.ranges(for: box).reduce(UInt64(0)) { $0 + UInt64($1.count) }
        #expect(inRanges == covered, "the ranges hold \(inRanges) IDs for \(covered) covered tiles")
        #expect(inRanges < inBox * 3 / 4)
    }
}
