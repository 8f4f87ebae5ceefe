import Foundation
import Testing
@testable import TileSync

@Suite("verify: metadata that does not describe the tiles is a warning, not a failure")
struct StoreVerifierWarningTests {
    @Test("Bounds that end on a tile edge hold the tile beyond, which only touches them")
    func boundsOnATileEdge() throws {
        let folder = try TemporaryDirectory()
        let east = 453.0 / 512 * 360 - 180
        let bounds = try BoundingBox(west: 137, south: 30, east: east, north: 35)
        let rows = try #require(try WebMercator.tileRanges(covering: bounds, zoom: 9).first).rows
        #expect(try WebMercator.tileRanges(covering: bounds, zoom: 9).first?.columns == 450...452)
        let tiles = (450...453).map { Tile(coordinate: TileCoordinate(unchecked: 9, $0, rows.lowerBound), data: GeneratedStore.bytes(for: TileCoordinate(unchecked: 9, $0, 0))) }
        var metadata = GeneratedStore.defaultMetadata
        metadata["bounds"] = "137,30,\(east),35"
        metadata["minzoom"] = "9"
        metadata["maxzoom"] = "9"
        let path = folder.file("edge.mbtiles")
        try GeneratedStore.write(tiles, to: path, metadata: metadata)
        let report = try StoreVerifier.verify(TileStoreLocation(kind: .mbtiles, address: path))
        #expect(report.problems == [])
        #expect(report.isClean && report.warningCount == 0)
    }

    @Test("A maxzoom below the tiles and a PMTiles centre outside its zooms: warnings, and the store verifies")
    func warningsOnly() throws {
        let folder = try TemporaryDirectory()
        var metadata = GeneratedStore.defaultMetadata
        metadata["maxzoom"] = "1"
        let path = folder.file("zooms.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2), to: path, metadata: metadata)
        let report = try StoreVerifier.verify(TileStoreLocation(kind: .mbtiles, address: path))
        #expect(report.isClean && report.problemCount == 0 && report.warningCount == 1)
        #expect(report.problems.map(\.description) == ["metadata maxzoom: is 1, but there are tiles at zoom 2"])

        let length = UInt32(GeneratedStore.bytes(for: TileCoordinate(unchecked: 0, 0, 0)).count)
        var builder = PMTilesArchiveBuilder(root: [PMTilesEntry(tileID: 0, offset: 0, length: length, runLength: 1)])
        builder.maxZoom = 0
        builder.addressedTiles = 1
        builder.tileEntries = 1
        try builder.write(to: folder.file("centre.pmtiles"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("centre.pmtiles")))
        bytes[118] = 7
        bytes.replaceSubrange(102..<118, with: PMTilesHeaderBounds.e7(-10, -10, 10, 10))
        try bytes.write(to: URL(fileURLWithPath: folder.file("centre.pmtiles")))
        let archive = try StoreVerifier.verify(TileStoreLocation(kind: .pmtiles, address: folder.file("centre.pmtiles")))
        #expect(archive.isClean && archive.warningCount == 1)
        #expect(archive.problems.map(\.description) == ["header: centre zoom 7 is outside zooms 0-0"])
    }
}

/// Bounds as the header stores them: four little-endian Int32 of degrees x 10^7.
enum PMTilesHeaderBounds {
    static func e7(_ values: Double...) -> Data {
        Data(values.flatMap { value -> [UInt8] in
            let bits = UInt32(bitPattern: Int32(value * 10_000_000))
            return (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt32($0))) }
        })
    }
}
