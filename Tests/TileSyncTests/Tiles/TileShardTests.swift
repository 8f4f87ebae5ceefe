import Foundation
import Testing
@testable import TileSync

@Suite("Shards: N parts of the tile space by tile-ID ranges")
struct TileShardTests {
    @Test("Every tile of zooms 0-6 is in exactly one part, parts are balanced, for N = 1 to 7", arguments: 1...7)
    func partition(count: Int) throws {
        var sizes = [Int](repeating: 0, count: count)
        for z in 0...6 {
            for coordinate in try TileRange.world(z: z) {
                let owners = try (0..<count).filter { try TileShard(index: $0, count: count).contains(coordinate) }
                #expect(owners.count == 1, "\(coordinate)")
                #expect(owners.first == TileShard.part(of: coordinate, count: count))
                if z == 6 { sizes[owners[0]] += 1 }
            }
        }
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "zoom 6 splits evenly: \(sizes)")
    }

    @Test("Parts follow the Hilbert curve: fixed values, zoom 30 without overflow")
    func values() throws {
        #expect(TileShard.part(of: try TileCoordinate(z: 0, x: 0, y: 0), count: 4) == 0)
        // Zoom 1 in tile-ID order: (0,0), (0,1), (1,1), (1,0).
        #expect(try [(0, 0), (0, 1), (1, 1), (1, 0)].map { TileShard.part(of: try TileCoordinate(z: 1, x: $0.0, y: $0.1), count: 4) } == [0, 1, 2, 3])
        #expect(TileShard.part(of: try TileCoordinate(z: 12, x: 3423, y: 1763), count: 16) == Int((19_078_479 - 5_592_405) * 16 / 16_777_216))
        let last = (1 << 30) - 1
        #expect(TileShard.part(of: try TileCoordinate(z: 30, x: last, y: 0), count: TileShard.maximumCount) == TileShard.maximumCount - 1)
        #expect(TileShard.part(of: try TileCoordinate(z: 30, x: 0, y: 0), count: TileShard.maximumCount) == 0)
    }

    @Test("Parsing I/N and its errors")
    func parsing() throws {
        #expect(try TileShard(parsing: "2/4") == TileShard(index: 2, count: 4))
        #expect(try TileShard(parsing: "2/4").description == "2/4")
        #expect(throws: TileShard.ParseError(text: "4/4", reason: "I must be 0 to 3")) { try TileShard(parsing: "4/4") }
        #expect(throws: TileShard.ParseError(text: "0/0", reason: "N must be 1 to 1048576")) { try TileShard(parsing: "0/0") }
        #expect(throws: TileShard.ParseError(text: "1-4", reason: "expected I/N, e.g. 0/4 for the first of four parts")) { try TileShard(parsing: "1-4") }
        #expect(TileShard.ParseError(text: "x", reason: "r").description == "'x' is not a shard: r")
    }

    @Test("A sharded filter: union of the parts is the whole; one part is everything only when N = 1")
    func filter() throws {
        let parts = try (0..<3).map { try TileFilter(maxZoom: 5, shard: TileShard(index: $0, count: 3)) }
        for z in 0...5 {
            for coordinate in try TileRange.world(z: z) {
                #expect(parts.filter { $0.contains(coordinate) }.count == 1)
            }
        }
        #expect(!parts[0].isEverything && !parts[0].isZoomRangeOnly)
        #expect(try TileFilter(shard: TileShard(index: 0, count: 1)).isEverything)
        #expect(parts[1].withoutShard == (try TileFilter(maxZoom: 5)))
    }

    @Test("Sharded conversions of every kind together hold the whole, with equal metadata", arguments: ["a.mbtiles", "a-folder", "a.tar", "a.pmtiles"])
    func shardedConversions(kind: String) throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 4)
        try GeneratedStore.write(tiles, to: directory.file(kind))
        var union: [TileCoordinate: Data] = [:]
        var metadata: [TileMetadata] = []
        for index in 0..<3 {
            var options = TileConverter.Options()
            options.filter = try TileFilter(shard: TileShard(index: index, count: 3))
            let destination = directory.file("part-\(index).mbtiles")
            let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file(kind)),
                                                    to: try TileStoreLocation(parsing: destination), options: options)
            let part = try StoreContents.tiles(destination)
            #expect(summary.tilesWritten == part.count)
            #expect(part.keys.allSatisfy { TileShard.part(of: $0, count: 3) == index })
            union.merge(part) { first, _ in first }
            var partMetadata = try TileStoreLocation(parsing: destination).openReader().metadata()
            partMetadata["agg_tiles_hash"] = nil  // each MBTiles keeps the hash of its own tiles
            metadata.append(partMetadata)
        }
        #expect(union == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
        #expect(metadata[0] == metadata[1] && metadata[1] == metadata[2])
        #expect(metadata[0]["minzoom"] == "0" && metadata[0]["maxzoom"] == "4")
    }
}
