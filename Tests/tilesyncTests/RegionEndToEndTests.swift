import Foundation
import Testing
@testable import TileSync

@Suite("tilesync with --region: polygons and corridors on every command that takes --bbox")
final class RegionEndToEndTests {
    let directory: String

    /// France-like, with a hole around Paris, and Corsica.
    static let france = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"mainland"},"geometry":{"type":"Polygon","coordinates":[
        [[-4.8,48.4],[-1.2,46.1],[-1.8,43.4],[3.1,42.4],[7.6,43.8],[6.6,45.9],[8.2,48.9],[2.5,51.1],[-1.9,49.7],[-4.8,48.4]],
        [[1.9,48.6],[2.9,48.6],[2.9,49.1],[1.9,49.1],[1.9,48.6]]]}},
        {"type":"Feature","properties":{"name":"Corsica"},"geometry":{"type":"Polygon","coordinates":[
        [[8.5,41.4],[9.6,41.4],[9.5,43.0],[8.6,42.4],[8.5,41.4]]]}}]}
        """

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-region-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(Self.france.utf8).write(to: URL(fileURLWithPath: directory + "/france.geojson"))
        try GeneratedSource.write(to: directory + "/world.mbtiles", count: 21_845, payload: 50)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func coordinates(_ path: String) throws -> [String] {
        let cursor = try TileStoreLocation(parsing: directory + "/" + path).openReader().tiles(matching: .all)
        var result: [String] = []
        while let tile = try cursor.next() { result.append("\(tile.coordinate)") }
        return result.sorted()
    }

    func expected(_ region: TileRegion, zooms: ClosedRange<Int>) -> [String] {
        zooms.flatMap { z in region.cover(atZoom: z).ranges.flatMap { range in range.map { "\($0)" } } }.sorted()
    }

    @Test("convert --region copies exactly the covered tiles, to a folder and from a PMTiles, and writes the region's bounds")
    func convert() throws {
        let region = try TileRegion(geoJSONFile: directory + "/france.geojson")
        let folder = try ToolRunner.run(["convert", "world.mbtiles", "fr", "--region", "france.geojson", "--min-zoom", "2", "--quiet"], in: directory)
        #expect(folder.status == 0, "\(folder.stderr)")
        let tiles = try coordinates("fr")
        #expect(tiles == expected(region, zooms: 2...7))
        #expect(tiles.count == 43)
        let metadata = String(decoding: FileManager.default.contents(atPath: directory + "/fr/metadata.json") ?? Data(), as: UTF8.self)
        #expect(metadata.contains("\"bounds\": \"-4.8,41.4,9.6,51.1\""))

        #expect(try ToolRunner.run(["convert", "world.mbtiles", "world.pmtiles", "--quiet"], in: directory).status == 0)
        let grown = try ToolRunner.run(["convert", "world.pmtiles", "fr.mbtiles", "--region", "france.geojson", "--border", "1"], in: directory)
        #expect(grown.status == 0, "\(grown.stderr)")
        let bordered = try TileRegion(geoJSONFile: directory + "/france.geojson", border: 1)
        #expect(try coordinates("fr.mbtiles") == expected(bordered, zooms: 0...7))
    }

    @Test("tile --region counts per zoom, and with --source what the store holds there")
    func count() throws {
        let text = try ToolRunner.run(["tile", "--region", "france.geojson", "--min-zoom", "5", "--max-zoom", "7"], in: directory)
        #expect(text.status == 0)
        #expect(text.stdout == """
            region:   france.geojson
            bounds:   -4.8,41.4,9.6,51.1  (west,south,east,north)
              z5: 4 tiles
              z6: 9 tiles
              z7: 24 tiles
            total:    37 tiles

            """)
        let json = try ToolRunner.run(["tile", "--region", "france.geojson", "--min-zoom", "7", "--max-zoom", "8",
                                       "--source", "world.mbtiles", "--json"], in: directory)
        #expect(json.status == 0)
        #expect(json.stdout == """
            {"region":"france.geojson","bounds":"-4.8,41.4,9.6,51.1","tiles":100,"zooms":[{"zoom":7,"tiles":24,"source_tiles":24,"source_bytes":1392},\
            {"zoom":8,"tiles":76,"source_tiles":0,"source_bytes":0}],"source":{"store":"world.mbtiles","tiles":24,"bytes":1392}}

            """)
    }

    @Test("a corridor needs --buffer; bad regions exit 1 naming the file and feature; --buffer alone is bad usage")
    func refusals() throws {
        try Data(#"{"type":"LineString","coordinates":[[2.35,48.85],[4.83,45.76],[5.37,43.30]]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory + "/route.geojson"))
        let noBuffer = try ToolRunner.run(["convert", "world.mbtiles", "out.mbtiles", "--region", "route.geojson"], in: directory)
        #expect(noBuffer.status == 1)
        #expect(noBuffer.stderr == "Error: route.geojson: LineString: a line or point has no area: give --buffer DISTANCE (e.g. 500m) for the corridor around it\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.mbtiles"))
        let corridor = try ToolRunner.run(["tile", "--region", "route.geojson", "--buffer", "5km", "--zoom", "7"], in: directory)
        #expect(corridor.status == 0)
        #expect(corridor.stdout.hasPrefix("region:   route.geojson (buffer 5 km)\n"))
        let usage = try ToolRunner.run(["convert", "world.mbtiles", "out.mbtiles", "--buffer", "2km"], in: directory)
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("Error: --buffer needs --region FILE\n"))
        let badDistance = try ToolRunner.run(["convert", "world.mbtiles", "out.mbtiles", "--region", "route.geojson", "--buffer", "2"], in: directory)
        #expect(badDistance.status == 2)
        #expect(badDistance.stderr.hasPrefix("Error: --buffer: '2' is not a distance such as 500m or 2km (0 to 10000 km)\n"))
        try Data("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[2,2],[2,0],[0,2],[0,0]]]}".utf8)
            .write(to: URL(fileURLWithPath: directory + "/bowtie.geojson"))
        let crossing = try ToolRunner.run(["sync", "world.mbtiles", "out", "--region", "bowtie.geojson"], in: directory)
        #expect(crossing.status == 1)
        #expect(crossing.stderr == "Error: bowtie.geojson: Polygon: its rings cross themselves or each other near [1, 1.000152]: a polygon's edges may touch, never cross\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/out"))
    }

    @Test("sync --region keeps a region current: a rerun changes nothing, a wider border adds the ring")
    func sync() throws {
        let first = try ToolRunner.run(["sync", "world.mbtiles", "fr.mbtiles", "--region", "france.geojson", "--json"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("\"added\":46"))
        let again = try ToolRunner.run(["sync", "world.mbtiles", "fr.mbtiles", "--region", "france.geojson", "--json"], in: directory)
        #expect(again.stdout.contains("\"added\":0"))
        #expect(again.stdout.contains("\"unchanged\":46"))
        let wider = try ToolRunner.run(["sync", "world.mbtiles", "fr.mbtiles", "--region", "france.geojson", "--border", "1", "--json"], in: directory)
        let region = try TileRegion(geoJSONFile: directory + "/france.geojson"), grown = try TileRegion(geoJSONFile: directory + "/france.geojson", border: 1)
        let added = expected(grown, zooms: 0...7).count - expected(region, zooms: 0...7).count
        #expect(wider.stdout.contains("\"added\":\(added)"))
        #expect(try coordinates("fr.mbtiles") == expected(grown, zooms: 0...7))
    }
}
