import Foundation
import Testing
@testable import TileSync

@Suite("Patch files (martin's diff format): made and applied between every pair of store kinds")
struct PatchPairTests {
    static let kinds = KindStores.kindNames

    /// Changes from A (the base, the z0-3 pyramid) to B (the target).
    static let added = ["4/0/0", "4/15/15"], changed = ["1/1/1", "3/2/5"], deleted = ["0/0/0", "3/7/7"]

    static var targetMetadata: TileMetadata {
        var metadata = GeneratedStore.defaultMetadata
        metadata["name"] = "generated, v2"
        metadata["custom key"] = nil
        metadata["added key"] = "new ✓"
        return metadata
    }

    static func targetTiles() throws -> [Tile] {
        var tiles = GeneratedStore.pyramid(maxZoom: 3).filter { !deleted.contains($0.coordinate.description) }.map { tile in
            changed.contains(tile.coordinate.description)
                ? Tile(coordinate: tile.coordinate, data: GeneratedStore.bytes(for: tile.coordinate, salt: "v2")) : tile
        }
        for text in added {
            let coordinate = try TileCoordinate(parsing: text)
            tiles.append(Tile(coordinate: coordinate, data: GeneratedStore.bytes(for: coordinate)))
        }
        return tiles
    }

    /// A base of kind `base` and a target of kind `target`.
    static func stores(_ stores: KindStores, base: String, target: String,
                       targetMetadata: TileMetadata = targetMetadata) throws -> (TileStoreLocation, TileStoreLocation) {
        (try stores.write(GeneratedStore.pyramid(maxZoom: 3), kind: base, name: "base"),
         try stores.write(try targetTiles(), kind: target, name: "target", metadata: targetMetadata))
    }

    static func tmsKey(_ text: String) throws -> String {
        let coordinate = try TileCoordinate(parsing: text)
        return "\(coordinate.z)/\(coordinate.x)/\(coordinate.tmsY)"
    }

    @Test("diff --patch holds exactly the changes and hashes; apply makes the base equal to the target; again does nothing",
          arguments: kinds, kinds)
    func pair(base: String, target: String) throws {
        let stores = try KindStores()
        let (baseLocation, targetLocation) = try Self.stores(stores, base: base, target: target)
        let patch = stores.directory.file("patch.mbtiles")
        let baseHash = try AggregateHashCalculator.compute(try baseLocation.openReader())
        let targetHash = try AggregateHashCalculator.compute(try targetLocation.openReader())

        let made = try TilePatcher.makePatch(from: baseLocation, to: targetLocation, writingTo: patch)
        // The target's metadata as a sync would write it: zooms and bounds filled in from its
        // tiles. A PMTiles reports those and a centre from its header: more keys differ there.
        let exactMetadata = base != "pmtiles" && target != "pmtiles"
        #expect((made.added, made.replaced, made.deleted) == (2, 2, 2))
        #expect(!exactMetadata || made.metadataChanges == 6)
        #expect(made.beforeHash == baseHash && made.afterHash == targetHash)
        #expect(made.patchBytes == (try FileManager.default.attributesOfItem(atPath: patch)[.size] as? Int))

        var expectedRows: [String: Data?] = [:]
        for text in Self.added + Self.changed {
            let coordinate = try TileCoordinate(parsing: text)
            expectedRows[try Self.tmsKey(text)] = GeneratedStore.bytes(for: coordinate, salt: Self.changed.contains(text) ? "v2" : "")
        }
        for text in Self.deleted { expectedRows[try Self.tmsKey(text)] = .some(nil) }
        #expect(try Self.patchRows(patch) == expectedRows)
        let metadata = try StoreContents.mbtilesMetadata(patch)
        #expect(metadata["name"] == "generated, v2")
        #expect(metadata["added key"] == "new ✓")
        #expect(metadata["custom key"] == .some(nil), "a key the target lacks is a NULL row")
        #expect(metadata["agg_tiles_hash_before_apply"] == baseHash.hex)
        #expect(metadata["agg_tiles_hash_after_apply"] == targetHash.hex)
        #expect(metadata["agg_tiles_hash"] == (try MBTilesAggregateHash.compute(SQLiteConnection(path: patch, mode: .readOnly)).hex))
        #expect(metadata["maxzoom"] == "4")
        let expectedKeys: Set = ["name", "added key", "custom key", "minzoom", "maxzoom", "bounds",
                                 "agg_tiles_hash", "agg_tiles_hash_before_apply", "agg_tiles_hash_after_apply"]
        #expect(exactMetadata ? Set(metadata.keys) == expectedKeys
            : Set(metadata.keys).isSuperset(of: expectedKeys.subtracting(["minzoom", "bounds"])))

        let applied = try TilePatcher.apply(patch: patch, to: baseLocation)
        #expect((applied.added, applied.replaced, applied.deleted, applied.absentDeletions) == (2, 2, 2, 0))
        #expect(applied.metadataChanges == made.metadataChanges)
        #expect(applied.beforeHash == baseHash && applied.afterHash == targetHash && !applied.alreadyApplied)
        #expect(applied.warnings.isEmpty)
        #expect(try StoreComparison.compare(targetLocation, baseLocation).isIdentical)
        let patchedMetadata = try baseLocation.openReader().metadata()
        #expect(patchedMetadata["name"] == "generated, v2" && patchedMetadata["added key"] == "new ✓")
        #expect(!patchedMetadata.contains("custom key"))
        #expect(try AggregateHashCalculator.compute(try baseLocation.openReader()) == targetHash)

        let stamp = try stores.modificationTimes(baseLocation)
        let again = try TilePatcher.apply(patch: patch, to: baseLocation)
        #expect(again.alreadyApplied && again.afterHash == targetHash)
        #expect(try stores.modificationTimes(baseLocation) == stamp, "an applied patch is not written again")
    }

    /// The rows of a patch, `z/x/tmsRow -> data` (nil data for a NULL row).
    static func patchRows(_ path: String) throws -> [String: Data?] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let statement = try connection.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        var rows: [String: Data?] = [:]
        while try statement.step() {
            rows["\(statement.int(at: 0))/\(statement.int(at: 1))/\(statement.int(at: 2))"] = .some(statement.blob(at: 3))
        }
        return rows
    }

    @Test("A store that is not the patch's base is refused, unchanged; --force applies it with a warning", arguments: kinds)
    func wrongBase(kind: String) throws {
        let stores = try KindStores()
        let (base, target) = try Self.stores(stores, base: "mbtiles", target: "mbtiles")
        let patch = stores.directory.file("patch.mbtiles")
        let made = try TilePatcher.makePatch(from: base, to: target, writingTo: patch)
        let other = try stores.write(GeneratedStore.pyramid(maxZoom: 2), kind: kind, name: "other")
        let otherPath = other.address
        let otherHash = try AggregateHashCalculator.compute(try other.openReader())
        let before = try stores.tiles(other)
        let stamp = try stores.modificationTimes(other)

        #expect(throws: TileStoreError(.baseMismatch, store: otherPath,
                                       message: "has agg_tiles_hash \(otherHash.hex), but the patch \(patch) was made for a store with \(made.beforeHash.hex); nothing was changed",
                                       hint: "apply it to the store it was made from, or pass --force to apply it anyway")) {
            try TilePatcher.apply(patch: patch, to: other)
        }
        #expect(try stores.tiles(other) == before)
        #expect(try stores.modificationTimes(other) == stamp)

        var options = TilePatcher.ApplyOptions()
        options.force = true
        let forced = try TilePatcher.apply(patch: patch, to: other, options: options)
        // On z0-2: 4/0/0, 4/15/15 and 3/2/5 are new there, 1/1/1 replaced, 0/0/0 deleted, 3/7/7 absent.
        #expect((forced.added, forced.replaced, forced.deleted, forced.absentDeletions) == (3, 1, 1, 1))
        #expect(forced.warnings.count == 2)
        #expect(forced.warnings.first == "\(otherPath) has agg_tiles_hash \(otherHash.hex), but the patch \(patch) was made for a store with \(made.beforeHash.hex); applied anyway (--force)")
        let after = try stores.tiles(other)
        #expect(after[try TileCoordinate(parsing: "1/1/1")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "1/1/1"), salt: "v2"))
        #expect(after[try TileCoordinate(parsing: "0/0/0")] == nil)
        #expect(after.count == before.count + 3 - 1)
    }

    @Test("A patch whose tiles were altered is refused before anything is written")
    func damagedPatch() throws {
        let stores = try KindStores()
        let (base, target) = try Self.stores(stores, base: "dir", target: "mbtiles")
        let patch = stores.directory.file("patch.mbtiles")
        let made = try TilePatcher.makePatch(from: base, to: target, writingTo: patch)
        let connection = try SQLiteConnection(path: patch, mode: .readWrite)
        try connection.execute("UPDATE tiles SET tile_data = X'89504E470D0A1A0A00' WHERE zoom_level = 4 AND tile_column = 0")
        let before = try stores.tiles(base)
        let error = #expect(throws: TileStoreError.self) { try TilePatcher.apply(patch: patch, to: base) }
        #expect(error?.kind == .corrupt && error?.store == patch)
        #expect(error?.message.hasPrefix("applied to \(base.address) it would give agg_tiles_hash ") == true)
        #expect(error?.message.hasSuffix(", not the \(made.afterHash.hex) its agg_tiles_hash_after_apply promises; nothing was changed") == true)
        #expect(try stores.tiles(base) == before)
    }

    @Test("A patch limited by a filter holds the changes inside it, and its after-hash is the patched base's")
    func filtered() throws {
        let stores = try KindStores()
        let (base, target) = try Self.stores(stores, base: "mbtiles", target: "dir")
        let patch = stores.directory.file("patch.mbtiles")
        var options = TilePatcher.Options()
        options.filter = try TileFilter(minZoom: 3, maxZoom: 4)
        let made = try TilePatcher.makePatch(from: base, to: target, writingTo: patch, options: options)
        #expect((made.added, made.replaced, made.deleted) == (2, 1, 1))
        let applied = try TilePatcher.apply(patch: patch, to: base)
        #expect(applied.afterHash == made.afterHash && applied.warnings.isEmpty)
        let tiles = try stores.tiles(base)
        #expect(tiles[try TileCoordinate(parsing: "0/0/0")] != nil, "outside the filter: kept")
        #expect(tiles[try TileCoordinate(parsing: "1/1/1")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "1/1/1")))
        #expect(tiles[try TileCoordinate(parsing: "3/2/5")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "3/2/5"), salt: "v2"))
    }

    @Test("An existing patch file is refused without overwrite; a failed diff leaves none")
    func existingPatch() throws {
        let stores = try KindStores()
        let (base, target) = try Self.stores(stores, base: "mbtiles", target: "mbtiles")
        let patch = stores.directory.file("patch.mbtiles")
        #expect(FileManager.default.createFile(atPath: patch, contents: Data("keep".utf8)))
        #expect(throws: TileStoreError(.destinationExists, store: patch, message: "already exists", hint: "pass --force to replace it")) {
            try TilePatcher.makePatch(from: base, to: target, writingTo: patch)
        }
        #expect(FileManager.default.contents(atPath: patch) == Data("keep".utf8))
        var options = TilePatcher.Options()
        options.overwrite = true
        options.isCancelled = { true }
        #expect(throws: TileStoreError.self) { try TilePatcher.makePatch(from: base, to: target, writingTo: patch, options: options) }
        #expect(FileManager.default.contents(atPath: patch) == Data("keep".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: stores.directory.path).sorted() == ["base.mbtiles", "patch.mbtiles", "target.mbtiles"])
    }

    @Test("An interrupted apply leaves the store as it was (or, changed object by object, says so), and the next run completes it",
          arguments: kinds)
    func interrupted(kind: String) throws {
        let stores = try KindStores()
        let (base, target) = try Self.stores(stores, base: kind, target: "mbtiles")
        let patch = stores.directory.file("patch.mbtiles")
        let made = try TilePatcher.makePatch(from: base, to: target, writingTo: patch)
        let before = try stores.tiles(base)
        let atomic = try base.makeUpdater().commitsAtomically
        let polls = Counter()
        var options = TilePatcher.ApplyOptions()
        options.isCancelled = { polls.increment() > 3 }
        let error = #expect(throws: TileStoreError.self) { try TilePatcher.apply(patch: patch, to: base, options: options) }
        #expect(error?.kind == .interrupted && error?.store == base.address)
        if atomic {
            #expect(error?.message == "interrupted; the store was not changed")
            #expect(try stores.tiles(base) == before)
        } else {
            #expect(error?.message == "interrupted after some of the patch's changes were made (the store changes object by object)")
            #expect(error?.hint == "apply the patch again to complete it")
            #expect(try stores.tiles(base) != before)
        }
        let completed = try TilePatcher.apply(patch: patch, to: base)
        #expect(completed.afterHash == (try AggregateHashCalculator.compute(try target.openReader())))
        #expect(completed.afterHash == made.afterHash)
        #expect(completed.warnings == (atomic ? [] : [
            "\(base.address) has agg_tiles_hash \(completed.beforeHash.hex), not the \(made.beforeHash.hex) the patch \(patch) was made for, "
                + "but the patch turns it into exactly the promised \(made.afterHash.hex) (the rest of an interrupted apply): completed",
        ]))
        #expect(try StoreComparison.compare(target, base).isIdentical)
    }

    @Test("A folder patch committed by a run that then crashed is completed by the next apply, which then has nothing to do")
    func folderJournal() throws {
        let stores = try KindStores()
        let (base, target) = try Self.stores(stores, base: "dir", target: "mbtiles", targetMetadata: GeneratedStore.defaultMetadata)
        let patch = stores.directory.file("patch.mbtiles")
        _ = try TilePatcher.makePatch(from: base, to: target, writingTo: patch)
        let root = base.address
        try FileManager.default.createDirectory(atPath: root + "/.tilesync-staging", withIntermediateDirectories: true)
        var journal = ""
        for (index, text) in (Self.added + Self.changed).enumerated() {
            let coordinate = try TileCoordinate(parsing: text)
            let data = GeneratedStore.bytes(for: coordinate, salt: Self.changed.contains(text) ? "v2" : "")
            #expect(FileManager.default.createFile(atPath: root + "/.tilesync-staging/\(index)", contents: data))
            journal += "P \(index) - \(text).png\n"
        }
        for text in Self.deleted { journal += "D \(text).png\n" }
        #expect(FileManager.default.createFile(atPath: root + "/" + DirectoryUpdater.journalName, contents: Data(journal.utf8)))

        let applied = try TilePatcher.apply(patch: patch, to: base)
        #expect(applied.alreadyApplied)
        #expect(try StoreComparison.compare(target, base).isIdentical)
        #expect(!AtomicFile.exists(root + "/" + DirectoryUpdater.journalName))
    }

    @Test("Hostile patch rows are refused naming the row, before anything is written", arguments: [
        ("INSERT INTO tiles VALUES (40, 0, 0, X'01')", "tile zoom_level 40, tile_column 0, tile_row 0: zoom 40 is out of range (0...30)"),
        ("INSERT INTO tiles VALUES (2, 9, 0, X'01')", "tile zoom_level 2, tile_column 9, tile_row 0: column x=9 is out of range at zoom 2 (0...3)"),
        ("INSERT INTO tiles VALUES ('a', 0, 0, X'01')", "row (zoom_level a, tile_column 0, tile_row 0): zoom_level is 'a', not an integer"),
        ("INSERT INTO tiles VALUES (1, 1, 1, X'')", "tile 1/1/0 (TMS row 1): tile_data is empty (0 bytes); a patch deletes a tile with NULL"),
        ("DROP INDEX tile_index; INSERT INTO tiles VALUES (4, 0, 15, X'01')", "tile 4/0/0 (TMS row 15): appears twice in the patch"),
    ])
    func hostileRows(sql: String, message: String) throws {
        let stores = try KindStores()
        let (base, target) = try Self.stores(stores, base: "mbtiles", target: "mbtiles")
        let patch = stores.directory.file("patch.mbtiles")
        _ = try TilePatcher.makePatch(from: base, to: target, writingTo: patch)
        try SQLiteConnection(path: patch, mode: .readWrite).execute("DELETE FROM tiles WHERE zoom_level = 1; " + sql)
        let before = try stores.tiles(base)
        let error = #expect(throws: TileStoreError.self) { try TilePatcher.apply(patch: patch, to: base) }
        #expect(error.map { "\($0.item ?? ""): \($0.message)" } == message)
        #expect(error?.store == patch && error?.kind == .invalidTile)
        #expect(try stores.tiles(base) == before)
    }
}
