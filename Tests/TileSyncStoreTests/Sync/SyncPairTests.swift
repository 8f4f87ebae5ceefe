import Foundation
import Testing
@testable import TileSync

@Suite("Sync and diff between every pair of store kinds")
struct SyncPairTests {
    static let kinds = KindStores.kindNames

    /// B: the z0-3 pyramid. A: B with 3/7/7 and 2/0/0 added... expressed as changes to B:
    /// added in A: 4/0/0, 4/15/15 (A has them, B lacks them); changed: 1/1/1, 3/2/5;
    /// deleted: 0/0/0, 3/7/7 (B has them, A lacks them).
    static let added = ["4/0/0", "4/15/15"], changed = ["1/1/1", "3/2/5"], deleted = ["0/0/0", "3/7/7"]

    static func sourceTiles() throws -> [Tile] {
        var a = GeneratedStore.pyramid(maxZoom: 3).filter { !deleted.contains($0.coordinate.description) }.map { tile in
            changed.contains(tile.coordinate.description) ? Tile(coordinate: tile.coordinate, data: GeneratedStore.bytes(for: tile.coordinate, salt: "v2")) : tile
        }
        for text in added {
            let coordinate = try TileCoordinate(parsing: text)
            a.append(Tile(coordinate: coordinate, data: GeneratedStore.bytes(for: coordinate)))
        }
        return a
    }

    /// A (the source) of kind `source` and B (the destination) of kind `destination`.
    static func stores(_ stores: KindStores, source: String, destination: String) throws -> (TileStoreLocation, TileStoreLocation) {
        (try stores.write(try sourceTiles(), kind: source, name: "a"), try stores.write(GeneratedStore.pyramid(maxZoom: 3), kind: destination, name: "b"))
    }

    @Test("diff reports exactly the changes; sync applies them; a second sync writes nothing", arguments: kinds, kinds)
    func pair(source: String, destination: String) throws {
        let stores = try KindStores()
        let (aLocation, bLocation) = try Self.stores(stores, source: source, destination: destination)

        var plan: [String: [String]] = [:]
        let diff = try TileSynchronizer.diff(from: aLocation, to: bLocation) { plan[$0.action.rawValue, default: []].append($0.coordinate.description) }
        #expect(plan.mapValues { $0.sorted() } == ["add": Self.added, "replace": Self.changed, "delete": Self.deleted.sorted()])
        #expect((diff.added, diff.replaced, diff.deleted, diff.unchanged) == (2, 2, 2, 81))

        let keep = try TileSynchronizer.sync(from: aLocation, to: bLocation)
        #expect((keep.added, keep.replaced, keep.deleted, keep.kept, keep.unchanged) == (2, 2, 0, 2, 81))
        let partial = try StoreComparison.compare(aLocation, bLocation)
        #expect((partial.onlyInFirst, partial.different, partial.onlyInSecond) == (0, 0, 2))

        var options = TileSynchronizer.Options()
        options.delete = true
        let full = try TileSynchronizer.sync(from: aLocation, to: bLocation, options: options)
        #expect((full.added, full.replaced, full.deleted, full.unchanged) == (0, 0, 2, 85))
        #expect(try StoreComparison.compare(aLocation, bLocation).isIdentical)
        #expect(try StoreVerifier.verify(bLocation).counts[.invalidTile] == nil)

        let before = try stores.modificationTimes(bLocation)
        let again = try TileSynchronizer.sync(from: aLocation, to: bLocation, options: options)
        #expect(again.isInSync)
        #expect(again.wroteNothing)
        #expect(again.unchanged == 85)
        #expect(try stores.modificationTimes(bLocation) == before)
        let checked = try TileSynchronizer.diff(from: aLocation, to: bLocation, options: { var o = TileSynchronizer.Options(); o.checksum = true; return o }())
        #expect(checked.isInSync)
    }

    @Test("A missing destination is created, with the source's metadata", arguments: kinds, kinds)
    func create(source: String, destination: String) throws {
        let stores = try KindStores()
        let a = try stores.write(try Self.sourceTiles(), kind: source, name: "a")
        let target = try stores.location(destination, "new")
        let summary = try TileSynchronizer.sync(from: a, to: target)
        #expect(summary.created && summary.added == 85)
        #expect(try StoreComparison.compare(a, target).isIdentical)
        #expect(try target.openReader().metadata()["custom key"] == "kept ✓")
    }

    @Test("Zoom and box filters limit both sides")
    func filters() throws {
        let stores = try KindStores()
        let (a, b) = try Self.stores(stores, source: "mbtiles", destination: "dir")
        var options = TileSynchronizer.Options()
        options.filter = try TileFilter(minZoom: 1, maxZoom: 3, boundingBox: BoundingBox(parsing: "0,-85,180,85"))
        options.delete = true
        let summary = try TileSynchronizer.sync(from: a, to: b, options: options)
        #expect((summary.added, summary.replaced, summary.deleted) == (0, 1, 1))
        let contents = try stores.tiles(b)
        #expect(contents[try TileCoordinate(parsing: "0/0/0")] != nil, "outside the filter: kept")
        #expect(contents[try TileCoordinate(parsing: "3/7/7")] == nil)
        #expect(contents[try TileCoordinate(parsing: "3/2/5")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "3/2/5")), "west half: untouched")
    }

    @Test("A dry run changes nothing", arguments: kinds)
    func dryRun(destination: String) throws {
        let stores = try KindStores()
        let (a, b) = try Self.stores(stores, source: "dir", destination: destination)
        let before = try stores.modificationTimes(b)
        var options = TileSynchronizer.Options()
        options.dryRun = true
        options.delete = true
        let summary = try TileSynchronizer.sync(from: a, to: b, options: options)
        #expect((summary.added, summary.replaced, summary.deleted) == (2, 2, 2))
        #expect(summary.wroteNothing)
        #expect(try stores.modificationTimes(b) == before)
    }

    @Test("martin's world_cities -> world_cities_modified: the diff is the set world_cities_diff holds",
          .enabled(if: Fixtures.available, Fixtures.missingMessage))
    func martinDiff() throws {
        var plan: [String] = []
        let summary = try TileSynchronizer.diff(from: TileStoreLocation(kind: .mbtiles, address: Fixtures.path("martin/mbtiles/world_cities_modified.mbtiles")),
                                                to: TileStoreLocation(kind: .mbtiles, address: Fixtures.path("martin/mbtiles/world_cities.mbtiles"))) {
            plan.append("\($0.action.rawValue) \($0.coordinate.z)/\($0.coordinate.x)/\($0.coordinate.tmsY)")
        }
        #expect(plan.sorted() == ["add 4/4/4", "delete 0/0/0", "replace 1/1/1"])
        #expect(summary.unchanged == 194)
        let diff = try SQLiteConnection(path: Fixtures.path("martin/mbtiles/world_cities_diff.mbtiles"), mode: .readOnly)
        let rows = try diff.rows("SELECT zoom_level || '/' || tile_column || '/' || tile_row, tile_data IS NULL FROM tiles ORDER BY 1")
        #expect(rows.map { ($0[1] == "1" ? "delete " : "set ") + ($0[0] ?? "") } == ["delete 0/0/0", "set 1/1/1", "set 4/4/4"])
    }

    @Test("--max-delete refuses, before any change, a sync that would delete more tiles, saying how many", arguments: kinds)
    func maxDelete(destination: String) throws {
        let (_, a, b, isUnchanged) = try Self.watchedPair(destination: destination)
        var options = TileSynchronizer.Options()
        options.delete = true
        options.maxDelete = 1
        #expect(throws: TileStoreError(.limitExceeded, store: b.address, message: "the sync would delete 2 tiles, more than the 1 of --max-delete; nothing was changed",
                                       hint: "check the source, or pass --max-delete 2 to allow it")) {
            try TileSynchronizer.sync(from: a, to: b, options: options)
        }
        #expect(try isUnchanged())
        options.maxDelete = 2
        let summary = try TileSynchronizer.sync(from: a, to: b, options: options)
        #expect((summary.added, summary.replaced, summary.deleted) == (2, 2, 2))
    }

    @Test("A cancelled sync leaves the destination as it was", arguments: kinds)
    func cancelled(destination: String) throws {
        let (_, a, b, isUnchanged) = try Self.watchedPair(destination: destination)
        var options = TileSynchronizer.Options()
        options.delete = true
        let counter = Counter()
        options.isCancelled = { counter.increment() > 50 }
        #expect {
            _ = try TileSynchronizer.sync(from: a, to: b, options: options)
        } throws: { ($0 as? TileStoreError)?.kind == .interrupted }
        #expect(try isUnchanged())
    }

    /// An MBTiles source and a destination of `destination`'s kind, with a test that the
    /// destination still holds the tiles and file times it holds now.
    private static func watchedPair(destination: String) throws
        -> (stores: KindStores, source: TileStoreLocation, destination: TileStoreLocation, isUnchanged: () throws -> Bool) {
        let stores = try KindStores()
        let (a, b) = try Self.stores(stores, source: "mbtiles", destination: destination)
        let before = try stores.tiles(b)
        let times = try stores.modificationTimes(b)
        return (stores, a, b, { try stores.tiles(b) == before && stores.modificationTimes(b) == times })
    }

    @Test("Folder into a missing folder: one copy that keeps every file's time; the next sync compares nothing")
    func folderIntoNewFolder() throws {
        let directory = try TemporaryDirectory()
        let a = directory.file("a-folder"), b = directory.file("b-folder")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 3), to: a)
        // Distinct, old times (2001 + index seconds, odd nanoseconds), so a copy that set "now" shows.
        let files = (FileManager.default.enumerator(atPath: a)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files.count == 85)
        for (index, file) in files.enumerated() {
            #expect(FileTime.setModificationTime(1_000_000_000_000_000_000 + Int64(index) * 1_000_000_007, path: a + "/" + file))
        }
        var added: [String] = []
        let first = try TileSynchronizer.sync(from: TileStoreLocation(kind: .directory, address: a), to: TileStoreLocation(kind: .directory, address: b)) {
            #expect($0.action == .add)
            added.append($0.coordinate.description)
        }
        #expect((first.added, first.replaced, first.deleted, first.unchanged, first.created, first.wroteNothing) == (85, 0, 0, 0, true, false))
        #expect(added.count == 85 && added.first == "0/0/0" && added.last == "3/7/7")
        #expect(first.bytesToAdd == GeneratedStore.pyramid(maxZoom: 3).reduce(0) { $0 + $1.data.count })
        #expect(try StoreContents.tiles(b) == StoreContents.tiles(a))
        let sourceTimes = try KindStores.modificationTimes(atPath: a).filter { $0.key.hasSuffix(".png") }
        #expect(try KindStores.modificationTimes(atPath: b).filter { $0.key.hasSuffix(".png") } == sourceTimes)
        #expect(!AtomicFile.exists(b + "/.tilesync-state"))
        let second = try TileSynchronizer.sync(from: TileStoreLocation(kind: .directory, address: a), to: TileStoreLocation(kind: .directory, address: b))
        #expect((second.added, second.replaced, second.unchanged, second.wroteNothing) == (0, 0, 85, true))
    }

    @Test("A committed folder journal left by a crash is completed by the next run")
    func journalRecovery() throws {
        let stores = try KindStores()
        let b = try stores.write(GeneratedStore.pyramid(maxZoom: 3), kind: "dir", name: "b").address
        let staging = b + "/.tilesync-staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let coordinate = try TileCoordinate(parsing: "4/0/0")
        #expect(FileManager.default.createFile(atPath: staging + "/1", contents: GeneratedStore.bytes(for: coordinate)))
        #expect(FileManager.default.createFile(atPath: b + "/.tilesync-journal", contents: Data("P 1 - 4/0/0.png\nD 0/0/0.png\n".utf8)))
        try DirectoryUpdater.recover(root: b)
        let contents = try StoreContents.tiles(b)
        #expect(contents[coordinate] == GeneratedStore.bytes(for: coordinate))
        #expect(contents[try TileCoordinate(parsing: "0/0/0")] == nil)
        #expect(!AtomicFile.exists(staging) && !AtomicFile.exists(b + "/.tilesync-journal"))
        #expect(FileManager.default.createFile(atPath: b + "/.tilesync-journal", contents: Data("P 9 - ../../escape.png\nD ../../etc/passwd\n".utf8)))
        try DirectoryUpdater.recover(root: b)
        #expect(!AtomicFile.exists(stores.directory.path + "/../escape.png"))
    }
}
