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

    @Test("Reread in one pass or spooled and laid out, from every MBTiles schema: the same tiles, entries and counts")
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
            var options = TileConverter.Options()
            options.transforms.compression = compression
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
        let wal = folder.file("wal.mbtiles")
        try GeneratedStore.write(tiles, to: wal)
        try Self.execute("PRAGMA journal_mode = WAL", in: wal)
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: wal), to: TileStoreLocation(parsing: folder.file("wal.pmtiles")))
        let onePass = try Data(contentsOf: URL(fileURLWithPath: folder.file("indexed.pmtiles")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("normalized.pmtiles"))) == onePass)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("wal.pmtiles"))) == onePass)
        let spooled = try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: folder.file("unindexed.pmtiles"))).header
        let reread = try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: folder.file("indexed.pmtiles"))).header
        #expect(spooled.metadataOffset == 127 + spooled.rootLength)
        #expect(reread.metadataOffset == 16_384)
        #expect(reread.addressedTilesCount == 5_461 && spooled.addressedTilesCount == 5_461)
        #expect(reread.tileContentsCount == spooled.tileContentsCount)
        #expect(reread.tileEntriesCount == spooled.tileEntriesCount)
        #expect(reread.tileDataLength == spooled.tileDataLength)
        for name in ["indexed", "unindexed"] {
            let read = try StoreContents.tiles(folder.file("\(name).pmtiles"))
            #expect(read.count == tiles.count)
            for tile in tiles { #expect(read[tile.coordinate] == tile.data, "\(name) tile \(tile.coordinate)") }
            #expect(try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: folder.file("\(name).pmtiles"))).integrityProblems() == [])
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers == [])
    }

    @Test("A second connection rereads with the first only inside its read transaction, and never in WAL mode")
    func companion() throws {
        let folder = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 2)
        try GeneratedStore.write(tiles, to: folder.file("rollback.mbtiles"))
        try GeneratedStore.write(tiles, to: folder.file("wal.mbtiles"))
        try Self.execute("PRAGMA journal_mode = WAL", in: folder.file("wal.mbtiles"))
        let rollback = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: folder.file("rollback.mbtiles")))
        #expect(rollback.companionRereader() == nil)
        try rollback.withConsistentReads {
            let companion = try #require(rollback.companionRereader())
            #expect(companion.location == rollback.location)
            var rows: [Int: Int] = [:]
            try companion.rereadColumn(z: 2, x: 1, rows: 0...3, wanted: { $0 != 2 }) { y, bytes in rows[y] = bytes.count }
            let expected = tiles.filter { $0.coordinate.z == 2 && $0.coordinate.x == 1 && $0.coordinate.y != 2 }
            #expect(rows == Dictionary(uniqueKeysWithValues: expected.map { ($0.coordinate.y, $0.data.count) }))
        }
        let wal = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: folder.file("wal.mbtiles")))
        try wal.withConsistentReads { #expect(wal.companionRereader() == nil) }
        // Another file renamed over the path: a new connection would read that one.
        try GeneratedStore.write(tiles, to: folder.file("other.mbtiles"))
        try rollback.withConsistentReads {
            try AtomicFile.rename(folder.file("other.mbtiles"), to: folder.file("rollback.mbtiles"))
            #expect(rollback.companionRereader() == nil)
        }
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
        private let companion: ChangedSource?
        /// Columns this source was asked for.
        private(set) var columnsRead = 0

        init(_ tiles: [TileCoordinate: Data], companion: Bool = false) {
            self.tiles = tiles
            self.companion = companion ? ChangedSource(tiles) : nil
        }

        func companionRereader() -> (any TileColumnRereading)? { companion }

        var companionColumnsRead: Int { companion?.columnsRead ?? 0 }

        func rereadColumn(z: Int, x: Int, rows: ClosedRange<Int>, wanted: (Int) -> Bool,
                          _ body: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
            columnsRead += 1
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
        let cases = [(longer, "has \(expectedLength + 1) bytes, not \(expectedLength): it changed while it was converted"),
                     (missing, "is gone: it changed while it was converted")]
        for (source, message) in cases {
            for companion in [false, true] {
                let location = TileStoreLocation(kind: .pmtiles, address: folder.file("out.pmtiles"))
                let writer = try PMTilesWriter(location: location, overwrite: false)
                let changedSource = ChangedSource(source, companion: companion)
                writer.abilities.rereadsBlobs?(changedSource)
                try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
                for tile in tiles { try writer.write(tile) }
                let error = #expect(throws: TileStoreError.self) { try writer.finish() }
                #expect(error?.kind == .io)
                #expect(error?.store == "/data/changed.mbtiles")
                #expect(error?.item == "tile 3/5/2")
                #expect(error?.message == message)
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
                #expect((changedSource.companionColumnsRead > 0) == companion)
            }
        }
    }

    @Test("With a companion, a window's columns are read in two parts on two threads, into the same archive")
    func twoParts() throws {
        let folder = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 4)
        var archives: [Data] = []
        for companion in [false, true] {
            let path = folder.file("\(companion).pmtiles")
            let writer = try PMTilesWriter(location: TileStoreLocation(kind: .pmtiles, address: path), overwrite: false)
            let source = ChangedSource(Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }), companion: companion)
            writer.abilities.rereadsBlobs?(source)
            try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
            for tile in tiles { try writer.write(tile) }
            try writer.finish()
            archives.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            // 341 tiles, 31 columns in one window: about half the tiles on each side.
            #expect(source.columnsRead + source.companionColumnsRead == 31)
            #expect(companion ? source.columnsRead > 5 && source.companionColumnsRead > 5 : source.companionColumnsRead == 0)
        }
        #expect(archives[0] == archives[1])
        let read = try StoreContents.tiles(folder.file("true.pmtiles"))
        #expect(read.count == tiles.count)
        for tile in tiles { #expect(read[tile.coordinate] == tile.data, "tile \(tile.coordinate)") }
    }
}
