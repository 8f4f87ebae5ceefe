import Foundation
import Testing
@testable import TileSync

@Suite("Index rows: entries bound to SQLite columns and read back; the checks of a row read from disk")
struct TileIndexRowTests {
    @Test("A coordinate, size, hash and time round-trip through a row; a missing hash and time stay NULL")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("index.sqlite"), mode: .readWriteCreate)
        try connection.execute("CREATE TABLE t (z, x, y, size, high, low, mtime)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        let hash = ContentHash(of: Data("tile".utf8))
        let entries = [TileIndexEntry(coordinate: try TileCoordinate(z: 14, x: 8_801, y: 5_373), size: 4, hash: hash, modificationTime: 1_700_000_000),
                       TileIndexEntry(coordinate: try TileCoordinate(z: 0, x: 0, y: 0), size: 12, hash: nil, modificationTime: nil)]
        for entry in entries {
            try TileIndexRow.bind(entry.coordinate, size: entry.size, hash: entry.hash, to: insert)
            try insert.bind(entry.modificationTime.map { Int($0) }, at: 7)
            try insert.run()
        }
        let select = try connection.prepare("SELECT * FROM t ORDER BY z DESC")
        var read: [TileIndexEntry] = []
        while try select.step() {
            #expect(TileIndexRow.isHash(select, at: 4) && TileIndexRow.isTime(select, at: 6))
            read.append(TileIndexRow.entry(from: select))
        }
        #expect(read == entries)
    }

    @Test("A hash half NULL and half set, or text where a time belongs, fails the row checks")
    func checks() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("index.sqlite"), mode: .readWriteCreate)
        let select = try connection.prepare("SELECT 1, NULL, 'noon', 5, 6")
        #expect(try select.step())
        #expect(!TileIndexRow.isHash(select, at: 0))
        #expect(!TileIndexRow.isTime(select, at: 2))
        #expect(TileIndexRow.isHash(select, at: 3) && TileIndexRow.isTime(select, at: 1))
        #expect(TileIndexRow.tileSizes == 1...Int(Int32.max))
    }
}
