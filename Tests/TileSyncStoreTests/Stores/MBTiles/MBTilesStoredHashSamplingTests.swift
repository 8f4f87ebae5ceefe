import Foundation
import Testing
@testable import TileSync

@Suite("MBTiles stored-hash sampling")
struct MBTilesStoredHashSamplingTests {
    @Test("Stored-hash sampling handles rowids at the 64-bit limits")
    func rowidsAtTheLimits() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("limits.mbtiles")
        let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try connection.execute(MBTilesWriter.schemaSQL(.flatWithHash))
        let insert = try connection.prepare(
            "INSERT INTO tiles_with_hash (rowid, zoom_level, tile_column, tile_row, tile_data, tile_hash) VALUES (?1, ?2, 0, 0, ?3, ?4)")
        for (rowid, z) in [(Int.min, 0), (Int.max, 1)] {
            let data = Data("tile \(z)".utf8)
            try insert.bind(rowid, at: 1)
            try insert.bind(z, at: 2)
            try insert.bind(data, at: 3)
            try insert.bind(ContentHash(of: data).hex, at: 4)
            try insert.run()
        }
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path))
        #expect(reader.hasVerifiedStoredHashes)
        #expect(MBTilesReader.interpolate(Int.min, Int.max, step: 0, of: 15) == Int.min)
        #expect(MBTilesReader.interpolate(Int.min, Int.max, step: 15, of: 15) == Int.max)
        #expect(MBTilesReader.interpolate(-10, 20, step: 5, of: 15) == 0)
    }
}
