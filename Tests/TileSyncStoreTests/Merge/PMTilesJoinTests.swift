import Foundation
import Testing
@testable import TileSync

@Suite("Joining PMTiles whose tiles do not overlap: tile data copied, directories rewritten")
struct PMTilesJoinTests {
    /// Tiles of zooms `zooms` in the quadrant (qx, qy) of the world, or every tile.
    static func tiles(zooms: ClosedRange<Int>, quadrant: (Int, Int)? = nil, salt: String = "") throws -> [Tile] {
        try zooms.flatMap { z in
            try TileRange.world(z: z).filter { coordinate in
                guard let (qx, qy) = quadrant, z > 0 else { return quadrant == nil || z == 0 }
                return coordinate.x >> (z - 1) == qx && coordinate.y >> (z - 1) == qy
            }.map { Tile(coordinate: $0, data: GeneratedStore.bytes(for: $0, salt: $0.z >= 5 && $0.x % 3 == 0 ? "shared" : salt)) }
        }
    }

    @Test("Archives of separate zooms and of the quadrants of one zoom are joined; the result reads back tile for tile")
    func joinsDisjointArchives() throws {
        let stores = try KindStores()
        let low = try stores.write(try Self.tiles(zooms: 0...4), kind: "pmtiles", name: "low")
        let quadrants = try [(1, 1), (0, 0), (1, 0)].enumerated().map { index, quadrant in
            try stores.write(try Self.tiles(zooms: 6...6, quadrant: quadrant), kind: "pmtiles", name: "q\(index)")
        }
        let sources = [quadrants[0], low, quadrants[1], quadrants[2]]
        let merged = TileStoreLocation.merging(sources, onDuplicate: .abort)
        let joined = try stores.location("pmtiles", "joined")
        let summary = try TileConverter.convert(from: merged, to: joined)
        #expect(summary.notes == ["the 4 sources hold tiles in separate ranges, so their tile data was copied as it is "
            + "and only the directories were written anew"])
        #expect(summary.tilesWritten == 341 + 3 * 1024)
        #expect((merged.kind as? MergedStoreKind)?.tally?.tilesGiven == [1024, 341, 1024, 1024])
        let streamed = try stores.location("mbtiles", "streamed")
        _ = try TileConverter.convert(from: merged, to: streamed)
        #expect(try StoreComparison.compare(joined, streamed).isIdentical)
        #expect(try stores.tiles(joined) == stores.tiles(streamed))
        let reader = try PMTilesReader(location: joined)
        #expect(reader.header.isClustered)
        #expect((reader.header.minZoom, reader.header.maxZoom) == (0, 6))
        #expect(reader.header.addressedTilesCount == 341 + 3 * 1024)
        #expect(try reader.integrityProblems().isEmpty)
        #expect(try StoreVerifier.verify(joined).isClean)
    }

    @Test("Archives whose tile-ID ranges overlap, or that differ in compression, are merged tile by tile")
    func overlappingArchivesStream() throws {
        let stores = try KindStores()
        let a = try stores.write(try Self.tiles(zooms: 0...2), kind: "pmtiles", name: "a")
        let b = try stores.write(try Self.tiles(zooms: 2...3, salt: "b"), kind: "pmtiles", name: "b")
        let merged = TileStoreLocation.merging([a, b], onDuplicate: .override)
        let destination = try stores.location("pmtiles", "merged")
        let summary = try TileConverter.convert(from: merged, to: destination)
        #expect(summary.notes.isEmpty)
        #expect(summary.tilesWritten == 5 + 16 + 64)
        #expect((merged.kind as? MergedStoreKind)?.tally?.decidedByPolicy == 16)
        let tiles = try stores.tiles(destination)
        #expect(tiles[try TileCoordinate(parsing: "2/1/1")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "2/1/1"), salt: "b"))
        let interleaved = try stores.write(try Self.tiles(zooms: 1...1, quadrant: (0, 0)), kind: "pmtiles", name: "c")
        let late = try stores.write(try Self.tiles(zooms: 1...1, quadrant: (1, 1)), kind: "pmtiles", name: "d")
        let middle = try stores.write(try Self.tiles(zooms: 1...1, quadrant: (0, 1)), kind: "mbtiles", name: "e")
        let mixed = try TileConverter.convert(from: TileStoreLocation.merging([interleaved, middle, late], onDuplicate: .abort),
                                              to: try stores.location("pmtiles", "mixed"))
        #expect(mixed.notes.isEmpty && mixed.tilesWritten == 3)
    }

    @Test("A filter or re-encoding streams the tiles instead of joining")
    func filtersStream() throws {
        let stores = try KindStores()
        let a = try stores.write(try Self.tiles(zooms: 0...1), kind: "pmtiles", name: "a")
        let b = try stores.write(try Self.tiles(zooms: 3...3), kind: "pmtiles", name: "b")
        var options = TileConverter.Options()
        options.filter = try TileFilter(minZoom: 1)
        let summary = try TileConverter.convert(from: TileStoreLocation.merging([a, b], onDuplicate: .abort),
                                                to: try stores.location("pmtiles", "filtered"), options: options)
        #expect(summary.notes.isEmpty && summary.tilesWritten == 4 + 64)
    }

    @Test("An archive whose directory points past its tile data is refused by the join, naming it; the destination is not made")
    func damagedPart() throws {
        let stores = try KindStores()
        let good = try stores.write(try Self.tiles(zooms: 0...1), kind: "pmtiles", name: "good")
        let bad = try stores.write(try Self.tiles(zooms: 3...3), kind: "pmtiles", name: "bad")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: bad.address))
        let lengthAt = 64
        let length = bytes[lengthAt..<lengthAt + 8].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
        for index in 0..<8 { bytes[lengthAt + index] = UInt8(truncatingIfNeeded: (length - 1) >> (8 * index)) }
        try bytes.write(to: URL(fileURLWithPath: bad.address))
        let destination = try stores.location("pmtiles", "joined")
        #expect {
            try TileConverter.convert(from: TileStoreLocation.merging([good, bad], onDuplicate: .abort), to: destination)
        } throws: { error in
            let error = error as? TileStoreError
            return error?.store == bad.address && error?.kind == .corrupt
                && error?.message.hasSuffix("lie past the end of the tile data section (\(length - 1) bytes)") == true
        }
        #expect(!FileManager.default.fileExists(atPath: destination.address))
    }
}
