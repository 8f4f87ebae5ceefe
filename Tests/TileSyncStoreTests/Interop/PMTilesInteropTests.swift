import Foundation
import Testing
@testable import TileSync

@Suite("PMTiles: real archives and the python reference reader", .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct PMTilesInteropTests {
    static let stamen = "protomaps-PMTiles/spec-v3/stamen_toner(raster)CC-BY+ODbL_z3.pmtiles"
    static let whitney = "protomaps-PMTiles/spec-v3/usgs-mt-whitney-8-15-webp-512.pmtiles"
    static let martin = "martin/pmtiles/png.pmtiles"

    @Test("The spec's and martin's archives: header counts, zooms, formats, structure checks pass", arguments: [
        (stamen, 85, 84, 80, 0, 3, "png"), (whitney, 50, 50, 50, 8, 15, "webp"), (martin, 5, 5, 5, 0, 1, "png"),
    ])
    func fixtures(path: String, addressed: Int, entries: Int, contents: Int, minZoom: Int, maxZoom: Int, format: String) throws {
        let reader = try PMTilesReader(location: TileStoreLocation(parsing: Fixtures.path(path)))
        #expect(reader.header.addressedTilesCount == UInt64(addressed))
        #expect(reader.header.tileEntriesCount == UInt64(entries))
        #expect(reader.header.tileContentsCount == UInt64(contents))
        #expect(Int(reader.header.minZoom) == minZoom && Int(reader.header.maxZoom) == maxZoom)
        #expect(try reader.metadata()["format"] == format)
        #expect(try reader.integrityProblems() == [])
        let summary = try reader.summary(matching: .all)
        #expect(summary.tileCount == addressed && summary.minZoom == minZoom && summary.maxZoom == maxZoom)
        let verified = try StoreVerifier.verify(TileStoreLocation(parsing: Fixtures.path(path)))
        #expect(verified.problems.isEmpty && verified.tilesChecked == addressed)
    }

    @Test("Every tile of every fixture as the python reader reads it", .enabled(if: PythonPMTiles.available, PythonPMTiles.missingMessage),
          arguments: [stamen, whitney, martin])
    func sameAsPython(path: String) throws {
        #expect(try PMTilesInteropTests.comparable(PythonPMTiles.ours(Fixtures.path(path))) == PMTilesInteropTests.comparable(PythonPMTiles.dump(Fixtures.path(path))))
    }

    /// Drops the header's enum numbers python prints differently from ours (none at present).
    static func comparable(_ lines: [String]) -> [String] { lines }

    @Test("martin's copy of the stamen archive has version byte 51: refused, naming the version")
    func wrongVersion() throws {
        #expect(throws: TileStoreError(.notATileStore, store: Fixtures.path("martin/pmtiles/stamen_toner__raster_CC-BY+ODbL_z3.pmtiles"),
                                       item: "header", message: "is PMTiles version 51, which TileSync does not read (only version 3)")) {
            try PMTilesReader(location: TileStoreLocation(parsing: Fixtures.path("martin/pmtiles/stamen_toner__raster_CC-BY+ODbL_z3.pmtiles")))
        }
    }

    @Test("plain_1.mbtiles -> PMTiles -> MBTiles keeps every tile byte for byte and every metadata key")
    func mbtilesRoundTrip() throws {
        let folder = try TemporaryDirectory()
        let source = Fixtures.path("node-mbtiles/plain_1.mbtiles")
        let toPMTiles = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: folder.file("p.pmtiles")))
        #expect(toPMTiles.tilesWritten == 285)
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: folder.file("p.pmtiles")), to: TileStoreLocation(parsing: folder.file("back.mbtiles")))
        #expect(try StoreContents.mbtilesRows(folder.file("back.mbtiles")) == (try StoreContents.mbtilesRows(source)))
        let original = try StoreContents.mbtilesMetadata(source)
        let back = try StoreContents.mbtilesMetadata(folder.file("back.mbtiles"))
        for (key, value) in original where key != "bounds" && key != "center" { #expect(back[key] == value, "key \(key)") }
        let reader = try PMTilesReader(location: TileStoreLocation(parsing: folder.file("p.pmtiles")))
        #expect(reader.header.tileTypeValue == PMTilesHeader.TileType.png.rawValue)
        #expect(try reader.integrityProblems() == [])
    }

    @Test("Archives TileSync writes read back by the python reader: every tile, header counts, with and without leaves",
          .enabled(if: PythonPMTiles.available, PythonPMTiles.missingMessage), arguments: [4, 7])
    func pythonReadsOurs(maxZoom: Int) throws {
        let folder = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: maxZoom).enumerated().map { index, tile in
            index % 4 == 0 ? Tile(coordinate: tile.coordinate, data: PMTilesStoreTests.shared[0]) : tile
        }
        try GeneratedStore.write(tiles, to: folder.file("a.mbtiles"))
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: folder.file("a.mbtiles")), to: TileStoreLocation(parsing: folder.file("a.pmtiles")))
        let python = try PythonPMTiles.dump(folder.file("a.pmtiles"))
        #expect(python == (try PythonPMTiles.ours(folder.file("a.pmtiles"))))
        #expect(python.count == tiles.count + 1)
        #expect(python.first?.hasPrefix("header \(tiles.count) ") == true)
    }
}
