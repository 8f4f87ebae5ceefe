import Foundation
import Testing

/// The preview pages in a real browser: headless Chromium (Debian's `chromium`) driven over the
/// DevTools protocol by `Tests/Browser/preview-screenshot.py`, with MapLibre GL JS from the PyPI
/// `maplibre` package served by `--assets` (no internet needed).
@Suite("tilesync serve previews in headless Chromium", .serialized,
       .enabled(if: PreviewBrowser.chromium != nil && PreviewBrowser.mapLibreAssets != nil,
                "chromium or the python maplibre package (MapLibre GL JS) not found: browser tests SKIPPED"))
final class ServeBrowserTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-serve-browser-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct Shot: Decodable {
        let idle: Bool
        let error: String?
        let width: Int
        let height: Int
        let colours: Int
        let top_share: Double
        let evaluated: [String]
    }

    /// - Parameter expressions: JavaScript evaluated in the page once the map is idle.
    private func screenshot(_ url: String, to file: String, evaluating expressions: [String] = []) throws -> Shot {
        let output = try ServeEndToEndTests.run("/usr/bin/env", ["python3", PreviewBrowser.script, PreviewBrowser.chromium ?? "chromium", url, file, "60"] + expressions)
        return try JSONDecoder().decode(Shot.self, from: Data(output.utf8))
    }

    /// The tiles the server answered (`GET /NAME/z/x/y.ext 200|304`) in its `--verbose` log.
    private func servedTiles(_ log: String, name: String) -> Set<String> {
        Set(log.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ")
            guard parts.count >= 3, parts[0] == "GET", parts[1].hasPrefix("/\(name)/"), parts[2] == "200" || parts[2] == "304" else { return nil }
            let path = parts[1].dropFirst(name.count + 2)
            return path.split(separator: "/").count == 3 ? String(path) : nil
        })
    }

    @Test("A raster MBTiles: the map fitted to the world draws the zoom 1 tiles it needs, and the screenshot is not blank")
    func rasterPreview() throws {
        let server = try ServeProcess([MergeEndToEndTests.world, "--assets", PreviewBrowser.mapLibreAssets ?? "", "--verbose"], in: directory)
        let shot = try screenshot(server.base + "/world/", to: directory + "/world.png")
        #expect(shot.idle, "the map reached idle")
        #expect(shot.error == nil)
        #expect(shot.width == 800)
        #expect(shot.colours > 50, "tiles drawn, not one flat colour")
        #expect(shot.top_share < 0.5, "no colour covers half of the page: the labelled tiles fill it")
        let tiles = servedTiles(server.stderr, name: "world")
        #expect(tiles.isSuperset(of: ["1/0/0.png", "1/1/0.png", "1/0/1.png", "1/1/1.png"]), "\(tiles.sorted())")
        #expect(server.stderr.contains("GET /_assets/maplibre-gl.js 200 "))
        _ = server.stop()
    }

    @Test("A vector PMTiles: drawn with the style made from vector_layers (the cities as points) from its zoom 0 tile; a click lists a city's properties; the switch shows tile boundaries",
          .enabled(if: ReliabilityEndToEndTests.fixturesAvailable, "shared fixtures not found: SKIPPED"))
    func vectorPreview() throws {
        let cities = ReliabilityEndToEndTests.fixtureRoot + "/martin/mbtiles/world_cities.mbtiles"
        #expect(try ToolRunner.run(["convert", cities, "cities.pmtiles", "--quiet"], in: directory).status == 0)
        let server = try ServeProcess(["cities.pmtiles", "--assets", PreviewBrowser.mapLibreAssets ?? "", "--verbose"], in: directory)
        let click = """
            new Promise((done) => { const map = window.previewMap; const point = map.project([2.3522, 48.8566]);
              map.fire("click", { point, lngLat: map.unproject(point) });
              setTimeout(() => done(document.getElementById("features").textContent), 100); })
            """
        let boundaries = "document.getElementById('boundaries').click(); String(window.previewMap.showTileBoundaries)"
        let shot = try screenshot(server.base + "/cities/", to: directory + "/cities.png", evaluating: [click, boundaries])
        #expect(shot.idle, "the map reached idle")
        #expect(shot.error == nil)
        #expect(shot.colours > 20, "points drawn over the background")
        #expect(shot.top_share > 0.5 && shot.top_share < 0.99, "mostly background, with points")
        let tiles = servedTiles(server.stderr, name: "cities")
        #expect(tiles.contains("0/0/0.pbf"), "\(tiles.sorted())")
        #expect(shot.evaluated.first?.contains("cities {\n \"name\": \"Paris\"\n}") == true, "a click on Paris lists its properties: \(shot.evaluated)")
        #expect(shot.evaluated.last == "true", "the switch shows tile boundaries")
        _ = server.stop()
    }
}
