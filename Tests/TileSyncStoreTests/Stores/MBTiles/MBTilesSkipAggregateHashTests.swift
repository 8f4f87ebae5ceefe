import Foundation
import Testing
@testable import TileSync

@Suite("MBTiles --skip-agg-tiles-hash")
struct MBTilesSkipAggregateHashTests {
    @Test("A new MBTiles gets martin's agg_tiles_hash by default and none with the option; the tiles are the same")
    func skipsTheHash() throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        try GeneratedStore.write(tiles, to: directory.file("a.pmtiles"))
        let source = try TileStoreLocation(parsing: directory.file("a.pmtiles"))
        _ = try TileConverter.convert(from: source, to: TileStoreLocation(parsing: directory.file("hashed.mbtiles")))
        var options = TileStoreOptions()
        options.mbtilesSkipsAggregateHash = true
        _ = try TileConverter.convert(from: source, to: TileStoreLocation(parsing: directory.file("plain.mbtiles"), options: options))

        let hashed = try SQLiteConnection(path: directory.file("hashed.mbtiles"), mode: .readOnly)
        let plain = try SQLiteConnection(path: directory.file("plain.mbtiles"), mode: .readOnly)
        let expected = try MBTilesAggregateHash.compute(hashed).hex
        let query = "SELECT value FROM metadata WHERE name = 'agg_tiles_hash'"
        #expect(try hashed.rows(query) == [[expected]])
        #expect(try plain.rows(query) == [])
        #expect(try MBTilesAggregateHash.compute(plain).hex == expected)
        #expect(try StoreContents.tiles(directory.file("plain.mbtiles")) == StoreContents.tiles(directory.file("hashed.mbtiles")))
        #expect(try StoreContents.tiles(directory.file("plain.mbtiles")).count == 85)
    }

    @Test("The option is a flag offered where an MBTiles is created, by the MBTiles kind only")
    func offeredForCreatedMBTiles() throws {
        let option = MBTilesSkipAggregateHashOption.commandLineOption
        #expect(option.name == "skip-agg-tiles-hash")
        #expect(option.placeholder == nil)
        #expect(option.uses == [.create])
        #expect(MBTilesStoreKind().optionNames.contains("skip-agg-tiles-hash"))
        #expect(!PMTilesStoreKind().optionNames.contains("skip-agg-tiles-hash"))
    }
}
