import Foundation
import Testing
@testable import TileSync

@Suite("Real MBTiles fixtures round-trip exactly", .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct FixtureRoundTripTests {
    /// Fixtures that must fail to read, each for its own documented reason (see BadInputTests).
    static let unreadable: Set<String> = [
        "mapbox-tile-copy/invalid.corrupt.mbtiles", "mapbox-tile-copy/invalid.null-tile.mbtiles",
        "mapbox-upload-validate/invalid.mbtiles-notadb.mbtiles", "mapbox-upload-validate/invalid.mbtiles-notiledata.mbtiles",
        "martin/files/invalid-tile-idx.mbtiles", "martin/files/invalid.mbtiles",
        "martin/mbtiles/world_cities_bindiff.mbtiles", "martin/mbtiles/world_cities_diff.mbtiles",
        "node-mbtiles/corrupt.mbtiles", "node-mbtiles/corrupt_null_tile.mbtiles",
    ]

    static var readable: [String] { Fixtures.allMBTiles().filter { !unreadable.contains($0) } }

    /// How a readable fixture is converted: plain_2's 28 grids that are not JSON are skipped.
    static func options(for fixture: String) -> TileConverter.Options {
        var options = TileConverter.Options()
        options.skipInvalid = fixture == "node-mbtiles/plain_2.mbtiles"
        return options
    }

    @Test("Every fixture is either read whole or refused, and the refused ones are exactly the known-bad set")
    func classification() throws {
        var refused: Set<String> = []
        for fixture in Fixtures.allMBTiles() {
            do {
                _ = try StoreContents.tiles(Fixtures.path(fixture))
            } catch {
                refused.insert(fixture)
            }
        }
        #expect(refused == Self.unreadable)
        #expect(Self.readable.count == 23)
    }

    @Test("MBTiles -> folder -> tar -> MBTiles keeps every (z, x, TMS row, bytes) and every metadata value",
          arguments: readable)
    func roundTrip(fixture: String) throws {
        let directory = try TemporaryDirectory()
        let original = Fixtures.path(fixture)
        let steps = [original, directory.file("tiles"), directory.file("tiles.tar"), directory.file("back.mbtiles")]
        let options = Self.options(for: fixture)
        for (source, destination) in zip(steps, steps.dropFirst()) {
            _ = try TileConverter.convert(from: try TileStoreLocation(parsing: source), to: try TileStoreLocation(parsing: destination), options: options)
        }
        let expectedRows = try StoreContents.mbtilesRows(original)
        let rows = try StoreContents.mbtilesRows(directory.file("back.mbtiles"))
        #expect(rows == expectedRows)

        let originalReader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: original))
        let before = try originalReader.metadata()
        let after = try StoreContents.mbtilesMetadata(directory.file("back.mbtiles"))
        for entry in before where entry.key != "agg_tiles_hash" {
            #expect(after[entry.key] == .some(entry.value), "metadata \(entry.key)")
        }
        #expect(after["agg_tiles_hash"] == .some(try originalReader.aggregateHash().hex), "agg_tiles_hash is recomputed from the tiles")
        let added = Set(after.keys).subtracting(before.keys)
        #expect(added.isSubset(of: ["minzoom", "maxzoom", "bounds", "format", "agg_tiles_hash"]), "added \(added)")
        if !expectedRows.isEmpty {
            #expect(after["minzoom"] != nil && after["maxzoom"] != nil && after["bounds"] != nil)
        }
    }

    @Test("plain_1 exported to a folder matches node-mbtiles' golden PNGs, XYZ and TMS", arguments: ["xyz", "tms"])
    func goldenImages(scheme: String) throws {
        let directory = try TemporaryDirectory()
        var options = TileStoreOptions()
        options.layout = scheme == "tms" ? .tms : .xyz
        let summary = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: Fixtures.path("node-mbtiles/plain_1.mbtiles")),
                                                to: TileStoreLocation(kind: .directory, address: directory.file("out"), options: options))
        #expect(summary.tilesWritten == 285)
        var compared = 0
        let images = try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("node-mbtiles/images"))
        for name in images where name.hasPrefix("plain_1_") {
            let parts = name.dropFirst("plain_1_".count).dropLast(".png".count).split(separator: "_").compactMap { Int($0) }
            let (x, tmsRow, z) = (parts[0], parts[1], parts[2])
            let tile = try TileCoordinate(z: z, x: x, tmsY: tmsRow)
            let row = scheme == "tms" ? tmsRow : tile.y
            let exported = FileManager.default.contents(atPath: directory.file("out/\(z)/\(x)/\(row).png"))
            #expect(exported == FileManager.default.contents(atPath: Fixtures.path("node-mbtiles/images/\(name)")), "\(name)")
            compared += 1
        }
        #expect(compared == 285)
        let files = FileManager.default.enumerator(atPath: directory.file("out"))?.compactMap { $0 as? String }.filter { $0.hasSuffix(".png") }
        #expect(files?.count == 285)
    }

    @Test("A real XYZ tree and its tars convert to MBTiles with the right TMS rows and bytes",
          arguments: ["tilelive-file/readonly", "tar/readonly-gnu.tar", "tar/readonly-gnu.tar.gz", "tar/readonly-ustar.tar", "tar/readonly-bsdtar-pax.tar"])
    func xyzTree(source: String) throws {
        let directory = try TemporaryDirectory()
        let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: Fixtures.path(source)),
                                                to: TileStoreLocation(kind: .mbtiles, address: directory.file("out.mbtiles")))
        #expect(summary.tilesWritten == 85)
        #expect(summary.nonTiles.count == 0)
        let rows = try StoreContents.mbtilesRows(directory.file("out.mbtiles"))
        #expect(rows.count == 85)
        for z in 0...3 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let file = Fixtures.path("tilelive-file/readonly/\(z)/\(x)/\(y).png")
                    #expect(rows["\(z)/\(x)/\((1 << z) - 1 - y)"] == FileManager.default.contents(atPath: file), "\(z)/\(x)/\(y)")
                }
            }
        }
        let metadata = try StoreContents.mbtilesMetadata(directory.file("out.mbtiles"))
        #expect(metadata["name"] == "empty")
        #expect(metadata["maxzoom"] == "3")
        #expect(metadata["bounds"] == "-180,-85.0511,180,85.0511")
        #expect(metadata["format"] == "png")
        #expect(metadata["scheme"] == nil)
    }

    @Test("Schemas are recognized", arguments: [
        ("martin/mbtiles/world_cities.mbtiles", "flat", TileOrder.zoomColumnTMSRow),
        ("martin/mbtiles/zoomed_world_cities.mbtiles", "flat-with-hash", .zoomColumnTMSRow),
        ("node-mbtiles/plain_1.mbtiles", "normalized", .zoomColumnTMSRow),
        ("node-mbtiles/unindexed.mbtiles", "normalized", .unordered),
        ("mapproxy/cache.mbtiles", "flat", .zoomColumnTMSRow),
        ("martin/mbtiles/webp.mbtiles", "flat", .unordered),
    ] as [(String, String, TileOrder)])
    func schemas(fixture: String, schema: String, order: TileOrder) throws {
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: Fixtures.path(fixture)))
        #expect(reader.schemaDescription == schema)
        #expect(reader.order == order)
        var previous: TileCoordinate?
        let cursor = try reader.tiles(matching: .all)
        while let tile = try cursor.next() {
            if let previous, order != .unordered { #expect(order.precedes(previous, tile.coordinate)) }
            previous = tile.coordinate
        }
    }

    @Test("Random access reads a tile without a scan, by XYZ coordinate")
    func randomAccess() throws {
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: Fixtures.path("node-mbtiles/plain_1.mbtiles")))
        let tile = try TileCoordinate(z: 3, x: 2, tmsY: 5)
        #expect(try reader.tile(at: tile) == FileManager.default.contents(atPath: Fixtures.path("node-mbtiles/images/plain_1_2_5_3.png")))
        #expect(try reader.tile(at: TileCoordinate(z: 4, x: 0, y: 15)) == nil)
        let folder = try DirectoryReader(location: TileStoreLocation(kind: .directory, address: Fixtures.path("tilelive-file/readonly")))
        #expect(try folder.tile(at: TileCoordinate(z: 1, x: 0, y: 0)) == FileManager.default.contents(atPath: Fixtures.path("tilelive-file/readonly/1/0/0.png")))
        let tar = try TarReader(location: TileStoreLocation(kind: .tar, address: Fixtures.path("tar/readonly-gnu.tar.gz")))
        #expect(try tar.tile(at: TileCoordinate(z: 1, x: 0, y: 0)) == FileManager.default.contents(atPath: Fixtures.path("tilelive-file/readonly/1/0/0.png")))
    }

    @Test("Summary counts per zoom without reading blobs")
    func summary() throws {
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: Fixtures.path("martin/mbtiles/world_cities.mbtiles")))
        let summary = try reader.summary(matching: .all)
        #expect(summary.tileCount == 196)
        #expect(summary.minZoom == 0 && summary.maxZoom == 6)
        let tree = try DirectoryReader(location: TileStoreLocation(kind: .directory, address: Fixtures.path("tilelive-file/readonly"))).summary(matching: .all)
        #expect(tree.zooms.map(\.tileCount) == [1, 4, 16, 64])
        #expect(tree.byteCount == 768336 - 203)
    }

    @Test("A summary without byte counts has the same counts and extents, and 0 bytes")
    func summaryWithoutBytes() throws {
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: Fixtures.path("martin/mbtiles/world_cities.mbtiles")))
        let full = try reader.summary(matching: .all)
        let extents = try reader.summary(matching: .all, countingBytes: false)
        #expect(full.byteCount > 0)
        #expect(extents.byteCount == 0)
        #expect(extents.zooms.map(\.tileCount) == full.zooms.map(\.tileCount))
        #expect(extents.zooms.map(\.range) == full.zooms.map(\.range))
        #expect(extents.bounds == full.bounds)
        let tree = try DirectoryReader(location: TileStoreLocation(kind: .directory, address: Fixtures.path("tilelive-file/readonly")))
            .summary(matching: .all, countingBytes: false)
        #expect(tree.zooms.map(\.tileCount) == [1, 4, 16, 64])
        #expect(tree.byteCount == 0)
    }
}
