import Foundation
import Testing
@testable import TileSync

@Suite("Nothing dropped in silence: every table an MBTiles holds besides its tiles is named", .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct UncarriedContentTests {
    static let grids = Fixtures.path("mbutil/utf8grid.mbtiles")

    static func expectedWarnings(destination: String) -> [String] {
        ["view grid_data", "table grid_key (153 rows)", "table grid_utfgrid (1 row)", "view grids", "table keymap (153 rows)"].map {
            "\(grids): \($0) is not carried to \(destination) (TileSync copies tiles and metadata)"
        }
    }

    @Test("mb-util's UTFGrid fixture: one warning per table and view, with row counts, on convert into every kind", arguments: ["out.mbtiles", "out-folder", "out.tar", "out.pmtiles"])
    func convert(destination: String) throws {
        let directory = try TemporaryDirectory()
        let target = directory.file(destination)
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: Self.grids), to: TileStoreLocation(parsing: target))
        #expect(summary.tilesWritten == 1)
        #expect(summary.uncarried == [
            UncarriedContent(item: "view grid_data", rows: nil), UncarriedContent(item: "table grid_key", rows: 153),
            UncarriedContent(item: "table grid_utfgrid", rows: 1), UncarriedContent(item: "view grids", rows: nil),
            UncarriedContent(item: "table keymap", rows: 153),
        ])
        #expect(summary.warnings.filter { $0.contains("is not carried") } == Self.expectedWarnings(destination: target))
    }

    @Test("sync names them too; a file with only the tile schema names nothing; a made-up geocoder table is counted")
    func syncAndOthers() throws {
        let directory = try TemporaryDirectory()
        let mirror = directory.file("mirror.mbtiles")
        let synced = try TileSynchronizer.sync(from: TileStoreLocation(parsing: Self.grids), to: TileStoreLocation(parsing: mirror))
        #expect(synced.warnings.filter { $0.contains("is not carried") } == Self.expectedWarnings(destination: mirror))
        #expect(synced.uncarried.count == 5)

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
        #expect(summary.uncarried == [UncarriedContent(item: "table geocoder_data", rows: 2), UncarriedContent(item: "table odd \"quoted\" name", rows: 0)].dropLast(),
                "empty tables and views hold nothing to lose")
    }
}
