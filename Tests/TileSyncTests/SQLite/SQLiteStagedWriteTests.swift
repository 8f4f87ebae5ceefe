import Foundation
import Testing
@testable import TileSync

@Suite("SQLite writes staged for a second thread (SQLiteStagedWriteVFS)")
struct SQLiteStagedWriteTests {
    /// A blob whose bytes depend on its key and version, of 100 to 20,099 bytes (some spill
    /// into overflow pages).
    static func blob(key: Int, version: Int) -> Data {
        let count = 100 + (key &* 7_919 &+ version &* 104_729) % 20_000
        var data = Data(count: count)
        data.withUnsafeMutableBytes { raw in
            guard let bytes = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var index = 0
            while index < count {
                bytes[index] = UInt8(truncatingIfNeeded: index &* 31 ^ key ^ version &* 17)
                index += 1
            }
        }
        return data
    }

    /// Keys in a scattered order, so inserts land all over the B-tree.
    static let keys = (0..<3_000).map { ($0 &* 1_543) % 3_000 }

    @Test("Every row reads back after inserts in scattered order, updates and reads between them, with a tiny page cache")
    func writesReadBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("staged.sqlite")
        let name = try #require(SQLiteStagedWriteVFS.name)
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWriteCreate, vfs: name)
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA page_size = 16384; PRAGMA cache_size = 4;
                CREATE TABLE rows (key INTEGER PRIMARY KEY, data BLOB);
                BEGIN;
                """)
            let insert = try connection.prepare("INSERT INTO rows (key, data) VALUES (?1, ?2)")
            let count = try connection.prepare("SELECT count(*), sum(length(data)) FROM rows")
            var expectedBytes = 0
            for (index, key) in Self.keys.enumerated() {
                let data = Self.blob(key: key, version: 0)
                try insert.bind(key, at: 1)
                try insert.bind(data, at: 2)
                try insert.run()
                expectedBytes += data.count
                if index % 500 == 499 {
                    #expect(try count.step())
                    #expect(count.int(at: 0) == index + 1)
                    #expect(count.int(at: 1) == expectedBytes)
                    count.reset()
                }
            }
            let update = try connection.prepare("UPDATE rows SET data = ?2 WHERE key = ?1")
            for key in stride(from: 0, to: 3_000, by: 7) {
                try update.bind(key, at: 1)
                try update.bind(Self.blob(key: key, version: 1), at: 2)
                try update.run()
            }
            try connection.execute("COMMIT")
            try connection.writeStagedPages()
        }
        let reader = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try reader.rows("PRAGMA integrity_check") == [["ok"]])
        let select = try reader.prepare("SELECT key, data FROM rows ORDER BY key")
        var keys = 0
        while try select.step() {
            let key = select.int(at: 0)
            #expect(select.blob(at: 1) == Self.blob(key: key, version: key % 7 == 0 ? 1 : 0), "row \(key)")
            keys += 1
        }
        #expect(keys == 3_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["staged.sqlite"])
    }

    @Test("A merge's streaming reader reads each page of a source about once, not once per tile")
    func streamingReaderReadsPagesOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.mbtiles")
        let tiles = GeneratedStore.pyramid(maxZoom: 5).map { tile in
            Tile(coordinate: tile.coordinate, data: tile.data + Data(repeating: UInt8(tile.coordinate.x % 251), count: 3_000))
        }
        try GeneratedStore.write(tiles, to: path)
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path))
        let pageCount = try reader.connection.rows("PRAGMA page_count").first?.first ?? nil
        let pages = try #require(pageCount.flatMap { Int($0) })
        reader.willStreamOnce()
        let before = reader.connection.cacheMisses
        let cursor = try reader.tiles(matching: TileFilter())
        var read = 0
        while try cursor.next() != nil { read += 1 }
        #expect(read == 1_365)
        let misses = reader.connection.cacheMisses - before
        #expect(misses <= pages + pages / 4, "\(misses) pages read for \(read) tiles in a file of \(pages) pages")
    }
}
