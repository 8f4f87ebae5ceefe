import Foundation
import Testing
@testable import TileSync

@Suite("MBTiles with a tile list: a seek per listed column run gives exactly the listed tiles, in the index's order")
struct MBTilesListedReadTests {
    /// About 2,500 of the 5,461 tiles of zooms 0-6, and 300 tiles the store does not hold (zoom 7).
    static func listText() -> (text: String, tiles: Set<TileCoordinate>) {
        var random = SplitMix64(seed: 5)
        var tiles = Set<TileCoordinate>()
        for _ in 0..<3_000 {
            let z = Int(random.next() % 7)
            let size = UInt64(1 << z)
            tiles.insert(TileCoordinate(unchecked: z, Int(random.next() % size), Int(random.next() % size)))
        }
        for _ in 0..<300 { tiles.insert(TileCoordinate(unchecked: 7, Int(random.next() % 128), Int(random.next() % 128))) }
        return (tiles.map(\.description).joined(separator: "\n"), tiles)
    }

    static func key(_ tile: TileCoordinate) -> (Int, Int, Int) { (tile.z, tile.x, tile.tmsY) }

    @Test("Every schema, and a table without the index: tiles, index, listing and summary hold exactly the listed tiles",
          arguments: ["flat", "hash", "norm", "noindex"])
    func listedReads(schema: String) throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("store.mbtiles")
        let pyramid = GeneratedStore.pyramid(maxZoom: 6)
        let schemas: [String: MBTilesSchema] = ["flat": .flat, "hash": .flatWithHash, "norm": .normalized]
        try GeneratedStore.write(pyramid, to: "mbtiles:" + path, mbtilesSchema: schemas[schema] ?? .flat)
        if schema == "noindex" {
            try SQLiteConnection(path: path, mode: .readWrite).execute("DROP INDEX tile_index")
        }
        let (text, listed) = Self.listText()
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder.file("list")))
        let list = try TileList(path: folder.file("list"), scratchFolder: folder.path)
        let filter = try TileFilter(minZoom: 1, maxZoom: 7, tiles: list)
        let expected = listed.filter { (1...6).contains($0.z) }.sorted { Self.key($0) < Self.key($1) }
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path))
        let ordered = reader.order == .zoomColumnTMSRow
        #expect(ordered == (schema != "noindex"))

        var tiles: [Tile] = []
        let cursor = try reader.tiles(matching: filter)
        while let tile = try cursor.next() { tiles.append(tile) }
        let read = ordered ? tiles.map(\.coordinate) : tiles.map(\.coordinate).sorted { Self.key($0) < Self.key($1) }
        #expect(read == expected)
        #expect(tiles.allSatisfy { $0.data == GeneratedStore.bytes(for: $0.coordinate) })

        var indexed: [TileIndexEntry] = []
        let index = try reader.index(matching: filter)
        while let entry = try index.next() { indexed.append(entry) }
        #expect(Set(indexed.map(\.coordinate)) == Set(expected))
        if ordered { #expect(indexed.map(\.coordinate) == expected) }
        #expect(indexed.allSatisfy { $0.hash == ContentHash(of: GeneratedStore.bytes(for: $0.coordinate)) })

        var listedEntries: [TileIndexEntry] = []
        let listing = try reader.listing(matching: filter)
        while let entry = try listing.next() { listedEntries.append(entry) }
        #expect(Set(listedEntries.map(\.coordinate)) == Set(expected))
        #expect(listedEntries.allSatisfy { $0.size == GeneratedStore.bytes(for: $0.coordinate).count })

        let summary = try reader.summary(matching: filter, countingBytes: true)
        #expect(summary.tileCount == expected.count)
        #expect(summary.byteCount == expected.reduce(0) { $0 + GeneratedStore.bytes(for: $1).count })
        let narrowed = try TileFilter(minZoom: 3, maxZoom: 4, boundingBox: BoundingBox(west: 0, south: -85, east: 180, north: 85), tiles: list)
        #expect(try reader.summary(matching: narrowed, countingBytes: false).tileCount == expected.filter { narrowed.contains($0) }.count)
    }
}
