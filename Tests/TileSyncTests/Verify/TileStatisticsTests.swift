import Foundation
import Testing
@testable import TileSync

@Suite("info --stats: sizes per zoom against sqlite3, layers against python's decoder, repeated contents")
struct TileStatisticsTests {
    static let cities = Fixtures.path("martin/mbtiles/world_cities.mbtiles")

    /// Per zoom, then `all`: tiles, bytes, min, nearest-rank median, p90, p99, max, computed by
    /// python over sqlite3's `length(tile_data)`.
    static func sqliteFigures(_ path: String) throws -> [String] {
        let script = """
            import math, sqlite3, sys
            rows = sqlite3.connect(sys.argv[1]).execute("SELECT zoom_level, length(tile_data) FROM tiles").fetchall()
            def figures(label, sizes):
                sizes.sort()
                rank = lambda p: sizes[max(0, math.ceil(len(sizes) * p / 100) - 1)]
                print(label, len(sizes), sum(sizes), sizes[0], rank(50), rank(90), rank(99), sizes[-1])
            for z in sorted({z for z, _ in rows}): figures(str(z), [s for zz, s in rows if zz == z])
            figures("all", [s for _, s in rows])
            """
        let result = try PythonPMTiles.run(["-c", script, path])
        #expect(result.status == 0)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    static func lines(_ statistics: TileStatistics) -> [String] {
        (statistics.zooms + [statistics.total]).map { sizes -> String in
            let figures: [Int] = [sizes.tiles, sizes.bytes, sizes.minimum, sizes.median, sizes.p90, sizes.p99, sizes.maximum]
            return ([sizes.zoom.map { String($0) } ?? "all"] + figures.map { String($0) }).joined(separator: " ")
        }
    }

    @Test("world_cities: every figure equals sqlite3's, in MBTiles and as a PMTiles; its one layer counted as python counts it",
          .enabled(if: Fixtures.available, Fixtures.missingMessage))
    func worldCities() throws {
        let expected = try Self.sqliteFigures(Self.cities)
        #expect(expected.count == 8)
        let sizes = try TileStatistics.compute(TileStoreLocation(parsing: Self.cities))
        #expect(Self.lines(sizes) == expected)
        #expect(sizes.repeatedTiles == nil && sizes.layers == [])
        #expect(sizes.largest.first?.coordinate == TileCoordinate(unchecked: 0, 0, 0) && sizes.largest.first?.size == 1107)
        #expect(sizes.largest.count == TileStatistics.largestKept && sizes.largest.map(\.size) == sizes.largest.map(\.size).sorted(by: >))
        let directory = try TemporaryDirectory()
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: Self.cities), to: TileStoreLocation(parsing: directory.file("c.pmtiles")))
        let archive = try TileStatistics.compute(TileStoreLocation(parsing: directory.file("c.pmtiles")), layers: true)
        #expect(Self.lines(archive) == expected)
        #expect(archive.repeatedTiles == 0 && archive.undecodedTiles == 0)
        #expect(archive.layers == [TileStatistics.Layer(name: "cities", tiles: 196, features: 508, bytes: archive.layers.first?.bytes ?? -1, fields: ["name"])])
        if PythonVectorTile.available {
            let script = """
                import gzip, sqlite3, sys, mapbox_vector_tile as m
                tiles = [m.decode(gzip.decompress(d)) for (d,) in sqlite3.connect(sys.argv[1]).execute("SELECT tile_data FROM tiles")]
                print(sum(len(layer["features"]) for tile in tiles for layer in tile.values()))
                """
            #expect(try PythonPMTiles.run(["-c", script, Self.cities]).stdout == "508\n")
        }
    }

    @Test("Bytes of no known format are read as vector tiles: counted when they decode, unreadable in a pbf store when not, other content elsewhere")
    func unknownBytes() throws {
        let directory = try TemporaryDirectory()
        let layer = VectorTile.Layer(name: "roads", keys: [], values: [], features: [VectorTile.Feature(type: .point, tags: [], geometry: [9, 2, 2])])
        let tiles = [
            Tile(coordinate: TileCoordinate(unchecked: 1, 0, 0), data: Data([0x80, 0x01, 0x05]) + VectorTile(layers: [layer]).encoded()),
            Tile(coordinate: TileCoordinate(unchecked: 1, 1, 0), data: Data([0x18, 0x05])),
        ]
        for format in ["pbf", "png"] {
            var metadata = GeneratedStore.defaultMetadata
            metadata["format"] = format
            let path = directory.file("\(format).mbtiles")
            try GeneratedStore.write(tiles, to: path, metadata: metadata)
            let statistics = try TileStatistics.compute(TileStoreLocation(parsing: path), layers: true)
            #expect(statistics.layers.map(\.name) == ["roads"] && statistics.layers.first?.tiles == 1 && statistics.layers.first?.features == 1)
            #expect(statistics.undecodedTiles == (format == "pbf" ? 1 : 0))
        }
    }

    @Test("Repeated contents from the stored hashes of a normalized MBTiles, without reading the tiles; nearest ranks on known sizes")
    func repeatedContents() throws {
        let directory = try TemporaryDirectory()
        let tiles = try TileRange.world(z: 2).enumerated().map { index, coordinate in
            Tile(coordinate: coordinate, data: Data(repeating: UInt8(index % 4), count: 10 * (index % 4 + 1)))
        }
        try GeneratedStore.write(tiles, to: directory.file("n.mbtiles"), mbtilesSchema: .normalized)
        let statistics = try TileStatistics.compute(TileStoreLocation(parsing: directory.file("n.mbtiles")))
        #expect(statistics.repeatedTiles == 12)
        let largest = statistics.largest.prefix(4)
        #expect(largest.map(\.size) == [40, 40, 40, 40] && largest.map(\.coordinate) == largest.map(\.coordinate).sorted())
        #expect(Self.lines(statistics) == ["2 16 400 10 20 40 40 40", "all 16 400 10 20 40 40 40"])
        #expect(TileStatistics.sizes(zoom: 3, [1: 99, 1000: 1]).p99 == 1 && TileStatistics.sizes(zoom: 3, [1: 98, 1000: 2]).p99 == 1000)
        #expect(TileStatistics.sizes(zoom: nil, [:]) == TileStatistics.Sizes(zoom: nil))
    }
}
