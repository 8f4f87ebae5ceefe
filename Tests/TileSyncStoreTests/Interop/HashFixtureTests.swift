import Foundation
import Testing
@testable import TileSync

@Suite("Hashes, normalized output and verify on real fixtures", .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct HashFixtureTests {
    static func location(_ fixture: String) -> TileStoreLocation {
        TileStoreLocation(kind: .mbtiles, address: Fixtures.path(fixture))
    }

    @Test("The agg_tiles_hash of world_cities equals the one martin stored")
    func aggregateOfWorldCities() throws {
        let reader = try MBTilesReader(location: Self.location("martin/mbtiles/world_cities.mbtiles"))
        #expect(try reader.aggregateHash().hex == "84792BF4EE9AEDDC5B1A60E707011FEE")
        #expect(try reader.metadata()["agg_tiles_hash"] == "84792BF4EE9AEDDC5B1A60E707011FEE")
        let directory = try TemporaryDirectory()
        _ = try TileConverter.convert(from: Self.location("martin/mbtiles/world_cities.mbtiles"),
                                      to: TileStoreLocation(kind: .directory, address: directory.file("tiles")))
        let folder = try DirectoryReader(location: TileStoreLocation(kind: .directory, address: directory.file("tiles")))
        #expect(try AggregateHashCalculator.compute(folder).hex == "84792BF4EE9AEDDC5B1A60E707011FEE")
    }

    @Test("flat-with-hash reads its stored hashes without re-hashing; TileMill ids are not trusted")
    func storedHashes() throws {
        let hashed = try MBTilesReader(location: Self.location("martin/mbtiles/zoomed_world_cities.mbtiles"))
        #expect(hashed.hasVerifiedStoredHashes)
        let index = try hashed.index(matching: .all)
        #expect(index is MBTilesIndexCursor)
        var entries = 0
        while let entry = try index.next() {
            #expect(try entry.hash == ContentHash(of: hashed.tile(at: entry.coordinate) ?? Data()))
            entries += 1
        }
        #expect(entries == 72)
        let tileMill = try MBTilesReader(location: Self.location("node-mbtiles/plain_1.mbtiles"))
        #expect(!tileMill.hasVerifiedStoredHashes)
        #expect(try tileMill.index(matching: .all) is HashingIndexCursor)
    }

    @Test("verify passes on zoomed_world_cities and names the problems of bad_hash and invalid-tile-idx")
    func verifyFixtures() throws {
        let clean = try StoreVerifier.verify(Self.location("martin/mbtiles/zoomed_world_cities.mbtiles"))
        #expect(clean.isClean)
        #expect(clean.tilesChecked == 72)
        let badHash = try StoreVerifier.verify(Self.location("martin/files/bad_hash.mbtiles"))
        #expect(badHash.problems == [.init(category: .aggregateHash, item: "metadata agg_tiles_hash",
                                           message: "is CAFEC0DEDEADBEEFDEADBEEFDEADBEEF, the tiles give D4E1030D57751A0B45A28A71267E46B8", isFixable: true)])
        let badIndex = try StoreVerifier.verify(Self.location("martin/files/invalid-tile-idx.mbtiles"))
        #expect(badIndex.problems.first == .init(category: .invalidTile, item: "tile zoom_level 6, tile_column 10, tile_row 64",
                                                 message: "TMS row 64 is out of range at zoom 6 (0...63)", isFixable: false))
        #expect(badIndex.counts == [.invalidTile: 1, .aggregateHash: 1])
        let lying = try StoreVerifier.verify(Self.location("mapbox-upload-validate/valid-webp.mbtiles"))
        #expect(lying.problems == [.init(category: .format, item: "tile 0/0/0", message: "is webp, but the metadata format is pbf", isFixable: false)])
    }

    @Test("Normalized output has one images row per distinct blob; back to flat gives the same bytes and agg hash",
          arguments: FixtureRoundTripTests.readable)
    func normalized(fixture: String) throws {
        let directory = try TemporaryDirectory()
        var options = TileStoreOptions()
        options.mbtilesSchema = .normalized
        let summary = try TileConverter.convert(from: Self.location(fixture),
                                                to: TileStoreLocation(kind: .mbtiles, address: directory.file("n.mbtiles"), options: options),
                                                options: FixtureRoundTripTests.options(for: fixture))
        let source = try SQLiteConnection(path: Fixtures.path(fixture), mode: .readOnly)
        let distinct = try source.rows("SELECT count(DISTINCT tile_data) FROM tiles").first?.first ?? nil
        let output = try SQLiteConnection(path: directory.file("n.mbtiles"), mode: .readOnly)
        #expect(try output.rows("SELECT count(*) FROM images").first?.first ?? nil == distinct)
        #expect(String(summary.distinctBlobs) == distinct)
        _ = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: directory.file("n.mbtiles")),
                                      to: TileStoreLocation(kind: .mbtiles, address: directory.file("flat.mbtiles")))
        #expect(try StoreContents.mbtilesRows(directory.file("flat.mbtiles")) == StoreContents.mbtilesRows(Fixtures.path(fixture)))
        let normalizedHash = try StoreContents.mbtilesMetadata(directory.file("n.mbtiles"))["agg_tiles_hash"]
        #expect(normalizedHash != nil)
        #expect(try StoreContents.mbtilesMetadata(directory.file("flat.mbtiles"))["agg_tiles_hash"] == normalizedHash)
        #expect(try StoreVerifier.verify(TileStoreLocation(kind: .mbtiles, address: directory.file("n.mbtiles"))).counts[.storedHash] == nil)
        #expect(try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: directory.file("n.mbtiles"))).hasVerifiedStoredHashes)
    }

    @Test("verify A B finds martin's diff between world_cities and world_cities_modified")
    func compareModified() throws {
        let result = try StoreComparison.compare(Self.location("martin/mbtiles/world_cities.mbtiles"),
                                                 Self.location("martin/mbtiles/world_cities_modified.mbtiles"))
        #expect(result.same == 194)
        #expect((result.onlyInFirst, result.onlyInSecond, result.different) == (1, 1, 1))
        let tms = result.differences.map { "\($0.coordinate.z)/\($0.coordinate.x)/\($0.coordinate.tmsY)" }.sorted()
        let diff = try SQLiteConnection(path: Fixtures.path("martin/mbtiles/world_cities_diff.mbtiles"), mode: .readOnly)
        let diffRows = try diff.rows("SELECT zoom_level || '/' || tile_column || '/' || tile_row FROM tiles").compactMap { $0[0] }.sorted()
        #expect(tms == diffRows)
        #expect(tms == ["0/0/0", "1/1/1", "4/4/4"])
    }

    @Test("verify A B across kinds: an MBTiles and its folder and tar copies are the same")
    func compareAcrossKinds() throws {
        let directory = try TemporaryDirectory()
        let source = Self.location("node-mbtiles/plain_1.mbtiles")
        _ = try TileConverter.convert(from: source, to: TileStoreLocation(kind: .directory, address: directory.file("d")))
        _ = try TileConverter.convert(from: source, to: TileStoreLocation(kind: .tar, address: directory.file("t.tar")))
        for other in ["d", "t.tar"] {
            let result = try StoreComparison.compare(source, try TileStoreLocation(parsing: directory.file(other)))
            #expect(result.isIdentical)
            #expect(result.same == 285)
        }
        #expect(FileManager.default.createFile(atPath: directory.file("d/4/3/2.png"), contents: Data([0x89, 0x50])))
        let changed = try StoreComparison.compare(source, TileStoreLocation(kind: .directory, address: directory.file("d")))
        #expect(changed.different == 1)
        #expect(changed.differences.first?.coordinate.description == "4/3/2")
    }

    @Test("verify --fix rewrites wrong stored hashes and metadata in a copy")
    func fix() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("z.mbtiles")
        try FileManager.default.copyItem(atPath: Fixtures.path("martin/mbtiles/zoomed_world_cities.mbtiles"), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("""
            UPDATE tiles_with_hash SET tile_hash = '00000000000000000000000000000000'
                WHERE rowid IN (SELECT rowid FROM tiles_with_hash ORDER BY rowid LIMIT 3 OFFSET 20);
            UPDATE metadata SET value = '7' WHERE name = 'minzoom';
            """)
        let before = try StoreVerifier.verify(TileStoreLocation(kind: .mbtiles, address: path))
        #expect(before.counts == [.storedHash: 3, .metadata: 1])
        let fixed = try StoreVerifier.verify(TileStoreLocation(kind: .mbtiles, address: path), fix: true)
        #expect(fixed.isClean)
        #expect(fixed.fixes == ["rewrote 3 stored hashes", "set minzoom = 6"])
        #expect(try StoreVerifier.verify(TileStoreLocation(kind: .mbtiles, address: path)).isClean)
    }
}
