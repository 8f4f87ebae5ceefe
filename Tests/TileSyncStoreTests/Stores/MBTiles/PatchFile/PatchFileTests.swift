import Foundation
import Testing
@testable import TileSync

@Suite("Patch files in martin's format: written rows and hashes read back; files that are no patch refused")
struct PatchFileTests {
    @Test("Puts and deletions come back in the aggregate hash's order with the recorded hashes; sqlite3 sees NULL deletions")
    func writtenAndRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("p.mbtiles")
        let writer = try PatchFileWriter(path: path, overwrite: false)
        try writer.begin(metadata: TileMetadata([.init(key: "name", value: "new"), .init(key: "old", value: nil)]), format: SniffedTileFormat(.png))
        let put = try TileCoordinate(z: 2, x: 1, y: 0), gone = try TileCoordinate(z: 1, x: 0, y: 1), low = try TileCoordinate(z: 0, x: 0, y: 0)
        for (coordinate, bytes) in [(put, "two"), (low, "zero")] {
            let data = Data(bytes.utf8)
            try writer.put(Tile(coordinate: coordinate, data: data), hash: ContentHash(of: data), modificationTime: 0)
        }
        try writer.remove(gone)
        try writer.finish()
        let before = ContentHash(of: Data("before".utf8)), after = ContentHash(of: Data("after".utf8))
        try writer.seal(before: before, after: after)

        let reader = try PatchFileReader(path: path)
        #expect(reader.beforeHash == before && reader.afterHash == after)
        #expect(try reader.counts() == (puts: 2, deletions: 1))
        #expect(reader.metadataChanges["name"] == "new" && reader.metadataChanges.contains("old") && reader.metadataChanges["old"] == nil)
        let cursor = try reader.changes()
        var changes: [PatchChange] = []
        while let change = try cursor.next() { changes.append(change) }
        #expect(changes == [PatchChange(coordinate: low, data: Data("zero".utf8)), PatchChange(coordinate: gone, data: nil),
                            PatchChange(coordinate: put, data: Data("two".utf8))])
        let rows = try BlockCompressedOutputTests.run("sqlite3", [path, "SELECT zoom_level, tile_column, tile_row, quote(tile_data) FROM tiles ORDER BY zoom_level"])
        #expect(rows.map { String(decoding: $0, as: UTF8.self) } ?? "0|0|0|X'7A65726F'\n1|0|0|NULL\n2|1|3|X'74776F'\n"
            == "0|0|0|X'7A65726F'\n1|0|0|NULL\n2|1|3|X'74776F'\n")
    }

    @Test("A file that is not a patch: missing, not SQLite, no tile table")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: TileStoreError.self) { try PatchFileReader(path: directory.file("missing.mbtiles")) }
        try Data("not sqlite at all".utf8).write(to: URL(fileURLWithPath: directory.file("text.mbtiles")))
        let error = try #require(throws: TileStoreError.self) { try PatchFileReader(path: directory.file("text.mbtiles")) }
        #expect(error.kind == .notATileStore && error.store == directory.file("text.mbtiles"))
    }
}
