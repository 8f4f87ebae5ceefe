import Foundation
import Testing
@testable import TileSync

@Suite("Metadata editing on every kind, tiles untouched")
struct TileMetadataEditorTests {
    static let kinds = ["a.mbtiles", "a-folder", "a.tar", "a.tar.gz", "a.pmtiles"]

    @Test("Set and remove keys in one change; the tiles and the other keys stay; nothing is written without a change", arguments: kinds)
    func edit(kind: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(kind)
        let tiles = GeneratedStore.pyramid(maxZoom: 2)
        try GeneratedStore.write(tiles, to: path)
        let store = try TileStoreLocation(parsing: path)
        let hash = try AggregateHashCalculator.compute(try store.openReader())

        let (before, after) = try TileMetadataEditor.edit(store, setting: [("name", "edited ✓"), ("attribution", "© test")], removing: ["custom key"])
        #expect(before["name"] == "generated" && before["custom key"] == "kept ✓")
        #expect(after["name"] == "edited ✓" && after["attribution"] == "© test" && !after.contains("custom key"))
        let read = try store.openReader().metadata()
        #expect(read["name"] == "edited ✓")
        #expect(read["attribution"] == "© test")
        #expect(!read.contains("custom key"))
        #expect(read["format"] == "png")
        #expect(read.contains("nothing") && read["nothing"] == nil, "a NULL value is kept as NULL")
        #expect(try StoreContents.tiles(path) == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
        #expect(try AggregateHashCalculator.compute(try store.openReader()) == hash)

        let stamp = try KindStores.modificationTimes(atPath: path)
        let same = try TileMetadataEditor.edit(store, setting: [("name", "edited ✓")])
        #expect(same.before == same.after)
        #expect(try KindStores.modificationTimes(atPath: path) == stamp, "an edit that changes nothing writes nothing")
    }

    @Test("Managed keys, a key both set and removed, and an absent key are refused, changing nothing")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: path)
        let store = try TileStoreLocation(parsing: path)
        let before = try store.openReader().metadata()
        #expect(throws: TileStoreError(.invalidMetadata, store: path, item: "metadata agg_tiles_hash",
                                       message: "is computed from the tiles and cannot be edited", hint: "`tilesync verify --fix` rewrites it")) {
            try TileMetadataEditor.edit(store, setting: [("agg_tiles_hash", "00")])
        }
        #expect(throws: TileStoreError(.invalidMetadata, store: path, item: "metadata scheme",
                                       message: "says how the tiles' paths are read and cannot be edited", hint: "convert with --scheme or --layout to change how they are laid out")) {
            try TileMetadataEditor.edit(store, removing: ["scheme"])
        }
        #expect(throws: TileStoreError(.invalidMetadata, store: path, item: "metadata name", message: "is both set and removed")) {
            try TileMetadataEditor.edit(store, setting: [("name", "x")], removing: ["name"])
        }
        #expect(throws: TileStoreError(.invalidMetadata, store: path, item: "metadata legend", message: "no such key; nothing was changed")) {
            try TileMetadataEditor.edit(store, setting: [("name", "x")], removing: ["legend"])
        }
        #expect(try store.openReader().metadata() == before)
    }

    @Test("An MBTiles edit touches only the metadata table: agg_tiles_hash and the key order are kept")
    func mbtilesKeepsOrder() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: path)
        let rowsBefore = try SQLiteConnection(path: path, mode: .readOnly).rows("SELECT name, value FROM metadata ORDER BY rowid")
        _ = try TileMetadataEditor.edit(try TileStoreLocation(parsing: path), setting: [("name", "renamed")])
        let rowsAfter = try SQLiteConnection(path: path, mode: .readOnly).rows("SELECT name, value FROM metadata ORDER BY rowid")
        #expect(rowsAfter.map { $0[0] } == rowsBefore.map { $0[0] })
        #expect(rowsAfter.first { $0[0] == "agg_tiles_hash" }?[1] == rowsBefore.first { $0[0] == "agg_tiles_hash" }?[1])
        #expect(rowsAfter.first { $0[0] == "name" }?[1] == "renamed")
        #expect(try StoreVerifier.verify(try TileStoreLocation(parsing: path)).problems.isEmpty)
    }
}
