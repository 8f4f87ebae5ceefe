import Foundation
import Testing
@testable import TileSync

@Suite("Process-wide SQLite settings (SQLiteLibrary)")
struct SQLiteLibraryTests {
    @Test("SQLite counts no memory after TileSync opened a database, wrote 2,000 rows and read them: its statistics are off")
    func memoryStatisticsOff() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("counted.sqlite"), mode: .readWriteCreate)
        try connection.execute("CREATE TABLE rows (key INTEGER PRIMARY KEY, data BLOB); BEGIN;")
        let insert = try connection.prepare("INSERT INTO rows (key, data) VALUES (?1, ?2)")
        for key in 0..<2_000 {
            try insert.bind(key, at: 1)
            try insert.bind(Data(repeating: UInt8(key % 251), count: 5_000), at: 2)
            try insert.run()
        }
        try connection.execute("COMMIT")
        let read = try connection.prepare("SELECT sum(length(data)) FROM rows")
        #expect(try read.step())
        #expect(read.int(at: 0) == 10_000_000)
        #if os(Linux)
        // Nothing else in the test process uses SQLite; elsewhere the system may have first.
        #expect(SQLiteLibrary.prepare())
        #endif
        if SQLiteLibrary.prepare() { #expect(SQLiteLibrary.countedMemoryBytes == 0) }
    }
}
