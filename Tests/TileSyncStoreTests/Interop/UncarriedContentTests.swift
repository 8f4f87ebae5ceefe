import Foundation
import Testing
@testable import TileSync

@Suite("Nothing dropped in silence: every table an MBTiles holds besides its tiles is named", .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct UncarriedContentTests {
    static let grids = Fixtures.path("mbutil/utf8grid.mbtiles")

    @Test("mb-util's UTFGrid fixture: its grid tables and views are carried into MBTiles, folders and tars; a PMTiles gets one warning with the count",
          arguments: ["out.mbtiles", "out-folder", "out.tar", "out.pmtiles"])
    func convert(destination: String) throws {
        let directory = try TemporaryDirectory()
        let target = directory.file(destination)
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: Self.grids), to: TileStoreLocation(parsing: target))
        #expect(summary.tilesWritten == 1)
        if destination.hasSuffix(".pmtiles") {
            #expect(summary.gridsWritten == 0)
            #expect(summary.uncarried == [UncarriedContent(item: "UTFGrids", rows: 1, unit: "grid", reason: "a PMTiles archive keeps no UTFGrids")])
            #expect(summary.warnings.filter { $0.contains("is not carried") }
                == ["\(Self.grids): UTFGrids (1 grid) is not carried to \(target) (a PMTiles archive keeps no UTFGrids)"])
        } else {
            #expect(summary.gridsWritten == 1 && summary.uncarried.isEmpty)
            #expect(!summary.warnings.contains { $0.contains("is not carried") })
        }
    }

    @Test("sync carries them too; a file with only the tile schema names nothing; a made-up geocoder table is counted")
    func syncAndOthers() throws {
        let directory = try TemporaryDirectory()
        let mirror = directory.file("mirror.mbtiles")
        let synced = try TileSynchronizer.sync(from: TileStoreLocation(parsing: Self.grids), to: TileStoreLocation(parsing: mirror))
        #expect(synced.uncarried.isEmpty && synced.gridsAdded == 1)

        let plain = try TileConverter.convert(from: TileStoreLocation(parsing: Fixtures.path("node-mbtiles/plain_1.mbtiles")),
                                              to: TileStoreLocation(parsing: directory.file("plain.mbtiles")))
        #expect(plain.uncarried.isEmpty)

        let geocoder = directory.file("geocoder.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: geocoder)
        try SQLiteConnection(path: geocoder, mode: .readWrite).execute("""
            CREATE TABLE geocoder_data (type TEXT, shard INTEGER, data BLOB);
            INSERT INTO geocoder_data VALUES ('feature', 0, x'00'), ('feature', 1, x'01');
            CREATE TABLE "odd ""quoted"" name" (x);
            CREATE TABLE empty_one (x);
            CREATE VIEW empty_view AS SELECT * FROM empty_one;
            """)
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: geocoder), to: TileStoreLocation(parsing: directory.file("g")))
        #expect(summary.warnings.first == "\(geocoder): table geocoder_data (2 rows) is not carried to \(directory.file("g")) (TileSync copies tiles, UTFGrids and metadata)")
        #expect(summary.uncarried == [UncarriedContent(item: "table geocoder_data", rows: 2), UncarriedContent(item: "table odd \"quoted\" name", rows: 0)].dropLast(),
                "empty tables and views hold nothing to lose")
    }

    @Test("A metadata key with two rows (no unique index) is named: every other store keeps one value, the last row's")
    func repeatedMetadataKey() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("repeated.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: source)
        try SQLiteConnection(path: source, mode: .readWrite).execute("DROP INDEX name; INSERT INTO metadata VALUES ('name', 'second');")
        let target = directory.file("out")
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: target))
        #expect(summary.uncarried == [UncarriedContent(item: "metadata name", rows: 2, reason: "a key has one value in a store; the last row's is carried")])
        #expect(summary.warnings.contains("\(source): metadata name (2 rows) is not carried to \(target) (a key has one value in a store; the last row's is carried)"))
        #expect(try TileStoreLocation(parsing: target).openReader().metadata()["name"] == "second")
    }
}
