import Foundation
import Testing
@testable import TileSync

@Suite("PMTiles from MBTiles: blobs read again from the source instead of spooled")
struct PMTilesRereadTests {
    /// Zooms 0-6 with 2 KB blobs (11 MB: several 4 MiB layout windows), every third tile one of
    /// eight shared blobs, and one blob larger than a window.
    static func tiles() -> [Tile] {
        var tiles = GeneratedStore.pyramid(maxZoom: 6).enumerated().map { index, tile in
            let padded = tile.data + Data(repeating: UInt8(index & 0xFF), count: 2_000)
            return Tile(coordinate: tile.coordinate, data: index % 3 == 0 ? PMTilesStoreTests.shared[index % 8] : padded)
        }
        tiles[4_000] = Tile(coordinate: tiles[4_000].coordinate, data: tiles[4_000].data + Data(repeating: 0xA5, count: 5 << 20))
        return tiles
    }

    private static func execute(_ sql: String, in path: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute(sql)
    }

    private static func rereadsExactly(_ path: String) throws -> Bool {
        try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path)).rereadsExactly
    }

    @Test("The reread archive is byte for byte the spooled one, from every MBTiles schema")
    func sameArchive() throws {
        let folder = try TemporaryDirectory()
        let tiles = Self.tiles()
        try GeneratedStore.write(tiles, to: folder.file("indexed.mbtiles"))
        try GeneratedStore.write(tiles, to: folder.file("unindexed.mbtiles"))
        try Self.execute("DROP INDEX tile_index", in: folder.file("unindexed.mbtiles"))
        try GeneratedStore.write(tiles, to: folder.file("normalized.mbtiles"), mbtilesSchema: .normalized)
        #expect(try Self.rereadsExactly(folder.file("indexed.mbtiles")))
        #expect(try !Self.rereadsExactly(folder.file("unindexed.mbtiles")))
        #expect(try Self.rereadsExactly(folder.file("normalized.mbtiles")))

        for (name, compression, expected) in [("indexed", nil, true), ("unindexed", nil, false), ("normalized", nil, true),
                                              ("indexed", TileCompression.gzip, false)] {
            var options = ConversionOptions()
            options.compression = compression
            let writer = try TileStoreLocation(parsing: folder.file("probe.pmtiles")).makeWriter()
            let run = try ConversionRun(reader: TileStoreLocation(parsing: folder.file("\(name).mbtiles")).openReader(),
                                        writer: writer, options: options, progress: nil, written: nil)
            #expect(run.rereadsSource == expected, "\(name) \(String(describing: compression))")
            writer.abort()
        }
        for name in ["indexed", "unindexed", "normalized"] {
            let summary = try TileConverter.convert(from: TileStoreLocation(parsing: folder.file("\(name).mbtiles")),
                                                    to: TileStoreLocation(parsing: folder.file("\(name).pmtiles")))
            #expect(summary.tilesWritten == 5_461, "\(name)")
            #expect(summary.duplicateTiles == 1_821 - 8, "\(name)")
        }
        let spooled = try Data(contentsOf: URL(fileURLWithPath: folder.file("unindexed.pmtiles")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("indexed.pmtiles"))) == spooled)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("normalized.pmtiles"))) == spooled)
        let read = try StoreContents.tiles(folder.file("indexed.pmtiles"))
        #expect(read.count == tiles.count)
        for tile in tiles { #expect(read[tile.coordinate] == tile.data, "tile \(tile.coordinate)") }
        #expect(try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: folder.file("indexed.pmtiles"))).integrityProblems() == [])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers == [])
    }

    @Test("Only a unique index on the coordinates (and on images.tile_id) lets a reread find exactly the tile streamed")
    func exactness() throws {
        let folder = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 2)
        let cases: [(name: String, sql: String, exact: Bool)] = [
            ("plain", "", true),
            ("partial", "DROP INDEX tile_index; CREATE UNIQUE INDEX t ON tiles (zoom_level, tile_column, tile_row) WHERE zoom_level > 0", false),
            ("not-unique", "DROP INDEX tile_index; CREATE INDEX t ON tiles (zoom_level, tile_column, tile_row)", false),
            ("two-columns", "DROP INDEX tile_index; CREATE UNIQUE INDEX t ON tiles (zoom_level, tile_column)", true),
            ("other-column", "DROP INDEX tile_index; CREATE UNIQUE INDEX t ON tiles (zoom_level, tile_column, tile_data)", false),
        ]
        for item in cases {
            let path = folder.file("\(item.name).mbtiles")
            try GeneratedStore.write(item.name == "two-columns" ? [] : tiles, to: path)
            if !item.sql.isEmpty { try Self.execute(item.sql, in: path) }
            #expect(try Self.rereadsExactly(path) == item.exact, "\(item.name)")
        }
        let normalized = folder.file("normalized.mbtiles")
        try GeneratedStore.write(tiles, to: normalized, mbtilesSchema: .normalized)
        try Self.execute("""
            CREATE TABLE images2 (tile_id TEXT, tile_data BLOB); INSERT INTO images2 SELECT * FROM images;
            DROP VIEW tiles; DROP TABLE images; ALTER TABLE images2 RENAME TO images;
            """, in: normalized)
        #expect(try !Self.rereadsExactly(normalized))
        let converted = try TileConverter.convert(from: TileStoreLocation(parsing: normalized),
                                                  to: TileStoreLocation(parsing: folder.file("normalized.pmtiles")))
        #expect(converted.tilesWritten == 21)
    }

    /// A source whose tiles changed since they were streamed: other bytes, or none.
    final class ChangedSource: TileColumnRereading {
        let location = TileStoreLocation(kind: .mbtiles, address: "/data/changed.mbtiles")
        let tiles: [TileCoordinate: Data]
        var rereadsExactly: Bool { true }

        init(_ tiles: [TileCoordinate: Data]) {
            self.tiles = tiles
        }

        func rereadColumn(z: Int, x: Int, rows: ClosedRange<Int>, wanted: (Int) -> Bool,
                          _ body: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
            for y in rows where wanted(y) {
                guard let data = tiles[TileCoordinate(unchecked: z, x, y)] else { continue }
                try data.withUnsafeBytes { try body(y, $0) }
            }
        }
    }

    @Test("A tile that changed or went away since it was streamed fails the write, naming the source and the tile; nothing is left")
    func changedSource() throws {
        let folder = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        var longer = Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) })
        var missing = longer
        let changed = TileCoordinate(unchecked: 3, 5, 2)
        longer[changed] = (longer[changed] ?? Data()) + Data([0])
        missing[changed] = nil
        let expectedLength = tiles.first { $0.coordinate == changed }?.data.count ?? 0
        for (source, message) in [(longer, "has \(expectedLength + 1) bytes, not \(expectedLength): it changed while it was converted"),
                                  (missing, "is gone: it changed while it was converted")] {
            let location = TileStoreLocation(kind: .pmtiles, address: folder.file("out.pmtiles"))
            let writer = try PMTilesWriter(location: location, overwrite: false)
            writer.rereadBlobs(from: ChangedSource(source))
            try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
            for tile in tiles { try writer.write(tile) }
            let error = #expect(throws: TileStoreError.self) { try writer.finish() }
            #expect(error?.kind == .io)
            #expect(error?.store == "/data/changed.mbtiles")
            #expect(error?.item == "tile 3/5/2")
            #expect(error?.message == message)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
        }
    }
}
