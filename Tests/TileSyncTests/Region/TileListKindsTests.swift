import Foundation
import Testing
@testable import TileSync

@Suite("A tile list selects exactly its tiles from every kind of the registry")
struct TileListKindsTests {
    @Test("convert --tiles from each kind: the listed tiles the store holds, nothing else", arguments: KindStores.kindNames)
    func listedConvert(kind: String) throws {
        let stores = try KindStores()
        let source = try stores.write(GeneratedStore.pyramid(maxZoom: 3), kind: kind, name: "source")
        let listPath = stores.directory.file("expire.list")
        try Data("3/5/2\n3/0/7\n2/3/3\n# absent:\n4/0/0\n3/5/2\n".utf8).write(to: URL(fileURLWithPath: listPath))
        let list = try TileList(path: listPath, scratchFolder: stores.directory.path)
        var options = TileConverter.Options()
        options.filter = try TileFilter(tiles: list)
        let destination = try TileStoreLocation(parsing: stores.directory.file("listed.mbtiles"))
        let summary = try TileConverter.convert(from: source, to: destination, options: options)
        #expect(summary.tilesWritten == 3)
        #expect(Set(try stores.tiles(destination).keys.map(\.description)) == ["3/5/2", "3/0/7", "2/3/3"])
        let widened = try TileFilter(minZoom: 0, maxZoom: 2, tiles: TileList(path: listPath, widening: 0...3, scratchFolder: stores.directory.path))
        let reader = try source.openReader()
        var found: [String] = []
        let cursor = try reader.tiles(matching: widened)
        while let tile = try cursor.next() { found.append(tile.coordinate.description) }
        #expect(Set(found) == ["0/0/0", "1/0/0", "1/1/0", "1/0/1", "1/1/1", "2/2/1", "2/0/3", "2/3/3", "2/0/0"])
        #expect(found.count == 9)
    }
}
