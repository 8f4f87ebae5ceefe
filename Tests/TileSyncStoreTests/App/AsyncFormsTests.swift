import Foundation
import Testing
@testable import TileSync

@Suite("Async forms of the blocking calls: patches, diff, compare, metadata edits, snapshots")
struct AsyncFormsTests {
    @Test("makePatch, describe, diff and compare from tasks give what the blocking calls give")
    func patchesAndComparisons() async throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        try GeneratedStore.write(tiles, to: directory.file("old.mbtiles"))
        var changed = Array(tiles.dropLast(2))
        changed[0] = Tile(coordinate: changed[0].coordinate, data: Data("changed".utf8))
        try GeneratedStore.write(changed, to: directory.file("new.mbtiles"))
        let old = try TileStoreLocation(parsing: directory.file("old.mbtiles"))
        let new = try TileStoreLocation(parsing: directory.file("new.mbtiles"))

        let made = try await TilePatcher.makePatch(from: old, to: new, writingTo: directory.file("p.mbtiles"))
        let described = try await TilePatcher.describe(patch: directory.file("p.mbtiles"))
        #expect((made.added, made.replaced, made.deleted) == (0, 1, 2))
        #expect(described.puts == 1 && described.deletions == 2)

        let plan = try await TileSynchronizer.diff(from: new, to: old)
        #expect((plan.added, plan.replaced, plan.deleted) == (0, 1, 2))
        let comparison = try await StoreComparison.compare(old, new)
        #expect(comparison.differences.count == 3)
    }

    @Test("Metadata edits and snapshots from tasks")
    func metadataAndSnapshots() async throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2), to: directory.file("a.mbtiles"))
        let store = try TileStoreLocation(parsing: directory.file("a.mbtiles"))
        let edited = try await TileMetadataEditor.edit(store, setting: [("name", "Renamed")])
        #expect(edited.after["name"] == "Renamed" && edited.before["name"] != "Renamed")
        #expect(try await TileMetadataEditor.metadata(of: store)["name"] == "Renamed")

        let source = try TileSource(location: store)
        let tile = try TileCoordinate(z: 2, x: 1, y: 3)
        let read = try await source.withSnapshot { snapshot in try snapshot.tile(at: tile) }
        #expect(read == GeneratedStore.bytes(for: tile))
    }
}
