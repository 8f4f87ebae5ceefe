import Foundation
import Testing
@testable import TileSync

@Suite("sync --write-patch: what a sync changed, as a patch that turns yesterday's copy into today's, for every kind")
struct SyncPatchTests {
    static func changedSource(_ tiles: [Tile]) -> [Tile] {
        tiles.filter { $0.coordinate.description != "2/3/3" && $0.coordinate.description != "1/0/1" }.map { tile in
            tile.coordinate.z == 2 && tile.coordinate.x == 1 ? Tile(coordinate: tile.coordinate, data: GeneratedStore.bytes(for: tile.coordinate, salt: "new")) : tile
        } + [Tile(coordinate: TileCoordinate(unchecked: 3, 5, 5), data: GeneratedStore.bytes(for: TileCoordinate(unchecked: 3, 5, 5)))]
    }

    @Test("The patch applied to yesterday's copy gives today's store, tile for tile; its hashes are the stores'", arguments: KindStores.kindNames)
    func patchOfASync(kind: String) throws {
        let stores = try KindStores()
        let base = GeneratedStore.pyramid(maxZoom: 2)
        let today = try stores.write(base, kind: kind, name: "today")
        let yesterday = try stores.write(base, kind: kind, name: "yesterday")
        let source = try stores.write(Self.changedSource(base), kind: "mbtiles", name: "source")
        var options = TileSynchronizer.Options()
        options.delete = true
        options.patchPath = stores.directory.file("today.patch")
        let summary = try TileSynchronizer.sync(from: source, to: today, options: options)
        #expect(summary.added == 1 && summary.replaced == 4 && summary.deleted == 2)
        let patch = try #require(summary.patch)
        #expect(patch.before == (try yesterday.openReader().aggregateHash()))
        #expect(patch.after == (try today.openReader().aggregateHash()))
        let applied = try TilePatcher.apply(patch: stores.directory.file("today.patch"), to: yesterday)
        #expect(applied.added == 1 && applied.replaced == 4 && applied.deleted == 2)
        #expect(try stores.tiles(yesterday) == stores.tiles(today))
        options.patchPath = stores.directory.file("again.patch")
        let again = try TileSynchronizer.sync(from: source, to: today, options: options)
        #expect(again.patch == nil && again.isInSync)
        #expect(!FileManager.default.fileExists(atPath: stores.directory.file("again.patch")))
    }

    @Test("An MBTiles' base hash is the one the last sync recorded while the file is as it left it; changed by another tool, it is computed")
    func recordedBase() throws {
        let stores = try KindStores()
        let destination = try stores.write(GeneratedStore.pyramid(maxZoom: 1), kind: "mbtiles", name: "copy")
        let first = try stores.write(GeneratedStore.pyramid(maxZoom: 2), kind: "mbtiles", name: "first")
        let second = try stores.write(Self.changedSource(GeneratedStore.pyramid(maxZoom: 2)), kind: "mbtiles", name: "second")
        let third = try stores.write(Self.changedSource(GeneratedStore.pyramid(maxZoom: 3)), kind: "mbtiles", name: "third")
        _ = try TileSynchronizer.sync(from: first, to: destination, options: TileSynchronizer.Options())
        let statePath = try #require(destination.resource.syncStatePath)
        let recorded = try #require(SyncState.recordedAggregateHash(path: statePath, destinationStamp: destination.resource.versionStamp))
        #expect(recorded == (try destination.openReader().aggregateHash()))

        // The recorded value is taken as it is: a planted one shows in the patch.
        let planted = ContentHash(of: Data("planted".utf8))
        try SQLiteConnection(path: statePath, mode: .readWrite)
            .execute("UPDATE meta SET value = '\(planted.hex)' WHERE key = 'destination_agg_tiles_hash'")
        var options = TileSynchronizer.Options()
        options.delete = true
        options.patchPath = stores.directory.file("planted.patch")
        let planting = try TileSynchronizer.sync(from: second, to: destination, options: options)
        #expect(planting.patch?.before == planted)
        #expect(planting.patch?.after == (try destination.openReader().aggregateHash()))

        // Another tool changes the file: its stamp moves, the base is computed.
        try SQLiteConnection(path: destination.address, mode: .readWrite)
            .execute("UPDATE tiles SET tile_data = x'89504e470d0a1a0a00' WHERE zoom_level = 0")
        let changed = try destination.openReader().aggregateHash()
        options.patchPath = stores.directory.file("computed.patch")
        let computing = try TileSynchronizer.sync(from: third, to: destination, options: options)
        #expect(computing.patch?.before == changed)
        #expect(computing.patch?.after == (try destination.openReader().aggregateHash()))
        #expect(SyncState.recordedAggregateHash(path: statePath, destinationStamp: destination.resource.versionStamp) == computing.patch?.after)
    }

    @Test("An existing patch file is refused before the destination changes; a destination to be created has no base")
    func refusals() throws {
        let stores = try KindStores()
        let today = try stores.write(GeneratedStore.pyramid(maxZoom: 1), kind: "mbtiles", name: "today")
        let source = try stores.write(Self.changedSource(GeneratedStore.pyramid(maxZoom: 2)), kind: "mbtiles", name: "source")
        try Data("old".utf8).write(to: URL(fileURLWithPath: stores.directory.file("old.patch")))
        var options = TileSynchronizer.Options()
        options.patchPath = stores.directory.file("old.patch")
        let before = try stores.tiles(today)
        #expect(throws: TileStoreError.self) { try TileSynchronizer.sync(from: source, to: today, options: options) }
        #expect(try stores.tiles(today) == before)
        options.patchPath = stores.directory.file("new.patch")
        #expect {
            try TileSynchronizer.sync(from: source, to: stores.location("mbtiles", "missing"), options: options)
        } throws: { error in
            (error as? TileStoreError)?.message == "--write-patch needs an existing destination: a patch turns its copy before the sync into its copy after"
        }
    }
}
