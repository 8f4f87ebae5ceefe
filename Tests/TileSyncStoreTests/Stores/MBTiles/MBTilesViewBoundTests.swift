import Foundation
import Testing
@testable import TileSync

@Suite("MBTiles: a tiles view of 89 million rows in a 12 KB file")
struct MBTilesViewBoundTests {
    /// A cross join of three 447-row tables: 447^3 = 89,314,623 rows.
    static func crossJoin(at path: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE n (v INTEGER);
            WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 446) INSERT INTO n SELECT i FROM c;
            CREATE VIEW tiles AS SELECT 10 AS zoom_level, a.v AS tile_column, b.v * 2 + c.v % 2 AS tile_row,
                x'1f8b0800000000000003' AS tile_data FROM n AS a, n AS b, n AS c;
            """)
    }

    @Test("info's summary stops at a bound and says so; the amount is a lower bound; convert and sync refuse within seconds")
    func boundedScans() throws {
        let folder = try TemporaryDirectory()
        let source = TileStoreLocation(kind: .mbtiles, address: folder.file("cross.mbtiles"))
        try Self.crossJoin(at: source.address)
        let started = Date()
        let reader = try MBTilesReader(location: source)
        let summary = try reader.summary(matching: .all)
        #expect(summary.isPartial)
        #expect(summary.tileCount == MBTilesReader.viewScanLimit + 1)
        #expect(try reader.amount(matching: .all, upTo: 2_000_000) == TileAmount(tiles: 2_000_001, bytes: 20_000_010, isLowerBound: true))
        let destination = TileStoreLocation(kind: .pmtiles, address: folder.file("out.pmtiles"))
        var options = TileConverter.Options()
        options.limits.maxTiles = 2_000_000
        let refusal = TileStoreError(.limitExceeded, store: source.address,
                                     message: "holds more than 2000000 tiles, the limit of --max-tiles; stopped before reading them",
                                     hint: "pass a larger --max-tiles to allow it")
        #expect(throws: refusal) { try TileConverter.convert(from: source, to: destination, options: options) }
        var sync = TileSynchronizer.Options()
        sync.limits.maxTiles = 2_000_000
        #expect(throws: refusal) { try TileSynchronizer.sync(from: source, to: destination, options: sync) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cross.mbtiles"])
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("A table is counted exactly, with bytes from the first tiles' mean size")
    func tableAmount() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("small.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 3), to: path)
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path))
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        let amount = try #require(try reader.amount(matching: .all, upTo: 10))
        #expect(amount.tiles == tiles.count && !amount.isLowerBound)
        let bytes = tiles.reduce(0) { $0 + $1.data.count }
        #expect(abs(amount.bytes - bytes) <= tiles.count)
        #expect(try reader.amount(matching: try TileFilter(maxZoom: 1), upTo: 10)?.tiles == 5)
        #expect(!(try reader.summary(matching: .all)).isPartial)
    }
}
