import Foundation
import Testing
@testable import TileSync

@Suite("martin's patch files", .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct MartinPatchTests {
    static let base = Fixtures.path("martin/mbtiles/world_cities.mbtiles")
    static let modified = Fixtures.path("martin/mbtiles/world_cities_modified.mbtiles")
    static let martinPatch = Fixtures.path("martin/mbtiles/world_cities_diff.mbtiles")

    @Test("martin's world_cities_diff turns world_cities into world_cities_modified, with a warning for each hash it lacks")
    func appliesMartinsPatch() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.file("world_cities.mbtiles")
        try FileManager.default.copyItem(atPath: Self.base, toPath: copy)
        let store = try TileStoreLocation(parsing: copy)
        let summary = try TilePatcher.apply(patch: Self.martinPatch, to: store)
        #expect((summary.added, summary.replaced, summary.deleted, summary.absentDeletions) == (1, 1, 1, 0))
        #expect(summary.beforeHash.hex == "84792BF4EE9AEDDC5B1A60E707011FEE")
        #expect(summary.afterHash.hex == "BA32AE76B9FE313D08FC39A5FFC6D3FB")
        #expect(summary.warnings == [
            "\(Self.martinPatch) has no agg_tiles_hash_before_apply (older mbtiles versions did not write one), so \(copy) could not be checked against the store it was made for",
            "\(Self.martinPatch) has no agg_tiles_hash_after_apply, so the result could not be checked against it",
        ])
        #expect(try StoreComparison.compare(try TileStoreLocation(parsing: Self.modified), store).isIdentical)
        #expect(try StoreContents.mbtilesMetadata(copy)["agg_tiles_hash"] == "BA32AE76B9FE313D08FC39A5FFC6D3FB")
    }

    @Test("Our patch of world_cities -> world_cities_modified holds martin's rows exactly, plus the hashes")
    func sameRowsAsMartin() throws {
        let directory = try TemporaryDirectory()
        let patch = directory.file("ours.mbtiles")
        let summary = try TilePatcher.makePatch(from: try TileStoreLocation(parsing: Self.base), to: try TileStoreLocation(parsing: Self.modified),
                                                writingTo: patch)
        #expect(try PatchPairTests.patchRows(patch) == (try PatchPairTests.patchRows(Self.martinPatch)))
        #expect(try PatchPairTests.patchRows(patch).count == 3)
        let metadata = try StoreContents.mbtilesMetadata(patch)
        #expect(metadata["description"] == "A modified version of major cities from Natural Earth data")
        #expect(metadata["agg_tiles_hash_before_apply"] == "84792BF4EE9AEDDC5B1A60E707011FEE")
        #expect(metadata["agg_tiles_hash_after_apply"] == "BA32AE76B9FE313D08FC39A5FFC6D3FB")
        #expect(summary.metadataChanges == 1)
    }

    @Test("Older spellings of the after-hash key are read, with a note")
    func olderSpelling() throws {
        let directory = try TemporaryDirectory()
        let patch = directory.file("old.mbtiles"), copy = directory.file("world_cities.mbtiles")
        try FileManager.default.copyItem(atPath: Self.martinPatch, toPath: patch)
        try FileManager.default.copyItem(atPath: Self.base, toPath: copy)
        let connection = try SQLiteConnection(path: patch, mode: .readWrite)
        try connection.execute("""
            INSERT INTO metadata VALUES ('agg_tiles_hash_in_diff', 'BA32AE76B9FE313D08FC39A5FFC6D3FB');
            INSERT INTO metadata VALUES ('agg_tiles_hash_before_apply', '84792bf4ee9aeddc5b1a60e707011fee');
            """)
        let summary = try TilePatcher.apply(patch: patch, to: try TileStoreLocation(parsing: copy))
        #expect(summary.warnings == ["\(patch) names the result's hash agg_tiles_hash_in_diff, as older mbtiles versions did (now agg_tiles_hash_after_apply)"])
        try connection.execute("UPDATE metadata SET value = 'not a hash' WHERE name = 'agg_tiles_hash_in_diff'")
        #expect(throws: TileStoreError(.corrupt, store: patch, item: "metadata agg_tiles_hash_in_diff", message: "'not a hash' is not an MD5 in hex")) {
            try TilePatcher.apply(patch: patch, to: try TileStoreLocation(parsing: copy))
        }
        try connection.execute("UPDATE metadata SET value = 'FNV1A' WHERE name = 'agg_tiles_hash_in_diff'; INSERT INTO metadata VALUES ('hash_algorithm', 'fnv1a')")
        #expect(throws: TileStoreError(.unsupported, store: patch, item: "metadata hash_algorithm", message: "is 'fnv1a'; TileSync checks agg_tiles_hash with MD5 only")) {
            try TilePatcher.apply(patch: patch, to: try TileStoreLocation(parsing: copy))
        }
    }

    @Test("martin's binary patches are refused with what to do instead")
    func binaryPatch() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.file("world_cities.mbtiles")
        try FileManager.default.copyItem(atPath: Self.base, toPath: copy)
        let binary = Fixtures.path("martin/mbtiles/world_cities_bindiff.mbtiles")
        #expect(throws: TileStoreError(.unsupported, store: binary, item: "table bsdiffrawgz",
                                       message: "holds binary tile differences (martin's --patch-type bin-diff), which TileSync does not apply",
                                       hint: "make a whole-tile patch: `tilesync diff A B --patch P` or `mbtiles diff --patch-type whole`")) {
            try TilePatcher.apply(patch: binary, to: try TileStoreLocation(parsing: copy))
        }
        #expect(try StoreComparison.compare(try TileStoreLocation(parsing: Self.base), try TileStoreLocation(parsing: copy)).isIdentical)
    }
}
