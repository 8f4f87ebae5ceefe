import Foundation
import Testing
@testable import TileSync

@Suite("PMTiles tile-ID ranges of a filter")
struct PMTilesIDRangesTests {
    static func ids(in ranges: [Range<UInt64>]) -> Set<UInt64> {
        Set(ranges.flatMap { Array($0) })
    }

    @Test("A box's ranges hold exactly its tiles at every zoom up to 6, sorted and disjoint")
    func boxRanges() throws {
        let box = try BoundingBox(west: -20.5, south: -10.25, east: 35.75, north: 48.5)
        let filter = try TileFilter(minZoom: 0, maxZoom: 6, boundingBox: box)
        let ranges = PMTilesIDRanges.ranges(for: filter)
        for (earlier, later) in zip(ranges, ranges.dropFirst()) { #expect(earlier.upperBound < later.lowerBound) }
        var expected: Set<UInt64> = []
        for z in 0...6 {
            for coordinate in try TileRange.world(z: z) where filter.contains(coordinate) {
                expected.insert(TileID.id(of: coordinate))
            }
        }
        #expect(Self.ids(in: ranges) == expected)
        #expect(expected.count == 195)
    }

    @Test("A box with a shard keeps exactly the tiles of both")
    func antimeridianAndShard() throws {
        let box = try BoundingBox(west: -170, south: -60, east: 20.5, north: 60)
        let shard = try TileShard(index: 1, count: 3)
        let filter = try TileFilter(minZoom: 3, maxZoom: 7, boundingBox: box, shard: shard)
        var expected: Set<UInt64> = []
        for z in 3...7 {
            for coordinate in try TileRange.world(z: z) where filter.contains(coordinate) {
                expected.insert(TileID.id(of: coordinate))
            }
        }
        #expect(expected.count > 100)
        #expect(Self.ids(in: PMTilesIDRanges.ranges(for: filter)) == expected)
        let shardOnly = try TileFilter(minZoom: 5, maxZoom: 5, shard: shard)
        #expect(PMTilesIDRanges.ranges(for: shardOnly) == [(TileID.firstID(ofZoom: 5) + 342)..<(TileID.firstID(ofZoom: 5) + 683)])
    }

    @Test("A zoom range alone is one range; up to zoom 30 it runs to the end of the ID space")
    func zoomRangeOnly() throws {
        #expect(PMTilesIDRanges.ranges(for: try TileFilter(minZoom: 2, maxZoom: 3)) == [5..<85])
        #expect(PMTilesIDRanges.ranges(for: .all) == [0..<TileID.end])
    }

    @Test("A box at zoom 30 is cut to at most the cell budget and still holds every tile of it")
    func deepBox() throws {
        let box = try BoundingBox(west: 13.0, south: 52.3, east: 13.8, north: 52.7)
        let filter = try TileFilter(minZoom: 30, maxZoom: 30, boundingBox: box)
        let ranges = PMTilesIDRanges.ranges(for: filter)
        #expect(ranges.count <= PMTilesIDRanges.cellsPerZoom * 4)
        let tiles = filter.ranges(atZoom: 30)[0]
        for coordinate in [TileCoordinate(unchecked: 30, tiles.columns.lowerBound, tiles.rows.lowerBound),
                           TileCoordinate(unchecked: 30, tiles.columns.upperBound, tiles.rows.upperBound),
                           TileCoordinate(unchecked: 30, (tiles.columns.lowerBound + tiles.columns.upperBound) / 2, tiles.rows.upperBound)] {
            let id = TileID.id(of: coordinate)
            #expect(ranges.contains { $0.contains(id) })
        }
    }
}
