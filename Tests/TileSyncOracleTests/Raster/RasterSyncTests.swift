import Foundation
import Testing
@testable import TileSync

@Suite("--drop-empty and sync with --tile-format: empty tiles left out, reruns re-encode only what changed", .enabled(if: RasterReencoder.isAvailable))
struct RasterSyncTests {
    /// Zooms 0-2 (21 tiles) as PNG: the tiles of row 0 at zooms 1 and 2 are fully transparent
    /// (6 tiles), the others a map-like picture unique to the tile and `version`.
    static func tiles(version: Int = 0, changing changed: Set<TileCoordinate> = []) throws -> [Tile] {
        try (0...2).flatMap { z in try TileRange.world(z: z).map { $0 } }.map { coordinate in
            if coordinate.z > 0, coordinate.y == 0 { return Tile(coordinate: coordinate, data: Data(try PNGCodec.encode(RasterSamples.empty))) }
            let salt = coordinate.z * 64 + coordinate.x * 8 + coordinate.y + (changed.contains(coordinate) ? 1000 : 0) + version
            let image = RasterSamples.image(64, 64) { x, y in (UInt8((x * 3 + salt) & 0xFF), UInt8((y * 5 + salt * 7) & 0xFF), 120, 255) }
            return Tile(coordinate: coordinate, data: Data(try PNGCodec.encode(image)))
        }
    }

    static var webpDroppingEmpty: RasterReencoder.Encoding {
        var encoding = RasterReencoder.Encoding(format: .webp)
        encoding.lossless = true
        encoding.dropEmpty = true
        return encoding
    }

    @Test("--drop-empty leaves out the 6 transparent tiles in every destination kind, counted", arguments: ["out.mbtiles", "out-folder", "out.pmtiles", "out.tar"])
    func dropEmpty(destination: String) throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(try Self.tiles(), to: directory.file("in.mbtiles"))
        var options = TileConverter.Options()
        var encoding = RasterReencoder.Encoding()
        encoding.dropEmpty = true
        options.transforms.rasterEncoding = encoding
        let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("in.mbtiles")),
                                                to: try TileStoreLocation(parsing: directory.file(destination)), options: options)
        #expect(summary.tilesWritten == 15)
        #expect(summary.rasterReencoding == { var t = RasterReencoder.Tally(); t.droppedEmpty = 6; return t }())
        let written = try StoreContents.tiles(directory.file(destination))
        let source = try StoreContents.tiles(directory.file("in.mbtiles"))
        #expect(written.count == 15)
        #expect(written.keys.allSatisfy { $0.z == 0 || $0.y != 0 })
        #expect(written.allSatisfy { source[$0.key] == $0.value }, "kept tiles keep their bytes when no format is asked")
        #expect(try TileStoreLocation(parsing: directory.file(destination)).openReader().tile(at: TileCoordinate(unchecked: 1, 0, 0)) == nil)
    }

    @Test("sync --tile-format webp --lossless --drop-empty: a rerun re-encodes nothing, then only the 5 changed tiles",
          arguments: [("source.mbtiles", "mirror.mbtiles"), ("source.mbtiles", "mirror-folder"), ("source.mbtiles", "mirror.pmtiles"),
                      ("source-folder", "mirror-folder")])
    func incremental(sourceName: String, destination: String) throws {
        let directory = try TemporaryDirectory()
        let sourcePath = directory.file(sourceName)
        try GeneratedStore.write(try Self.tiles(), to: sourcePath)
        let source = try TileStoreLocation(parsing: sourcePath), mirror = try TileStoreLocation(parsing: directory.file(destination))
        var options = TileSynchronizer.Options()
        options.transforms.rasterEncoding = Self.webpDroppingEmpty
        options.delete = true
        let first = try TileSynchronizer.sync(from: source, to: mirror, options: options)
        #expect(first.added == 15 && first.rasterReencoding?.reencoded == 15 && first.rasterReencoding?.droppedEmpty == 6)
        #expect(try RasterSamples.pixelDifferences(sourcePath, mirror.address).differing.count == 6, "only the dropped ones")
        #expect(try TileStoreLocation(parsing: mirror.address).openReader().metadata()["format"] == "webp")
        let memo = try #require(mirror.resource.syncStatePath) + ".rewrites"
        #expect(FileManager.default.fileExists(atPath: memo), "the memo beside the sync state")

        let second = try TileSynchronizer.sync(from: source, to: mirror, options: options)
        #expect(second.isInSync && second.unchanged == 15)
        #expect(second.rasterReencoding?.reencoded == 0 && second.rasterReencoding?.droppedEmpty == 6)

        let changed: Set<TileCoordinate> = [TileCoordinate(unchecked: 0, 0, 0), TileCoordinate(unchecked: 1, 1, 1),
                                            TileCoordinate(unchecked: 2, 0, 1), TileCoordinate(unchecked: 2, 3, 2),
                                            TileCoordinate(unchecked: 2, 2, 3)]
        try FileManager.default.removeItem(atPath: sourcePath)
        try GeneratedStore.write(try Self.tiles(changing: changed), to: sourcePath)
        let third = try TileSynchronizer.sync(from: source, to: mirror, options: options)
        #expect(third.replaced == 5 && third.added == 0 && third.deleted == 0 && third.unchanged == 10)
        #expect(third.rasterReencoding?.reencoded == 5)
        let (_, differing) = try RasterSamples.pixelDifferences(sourcePath, mirror.address)
        #expect(differing.count == 6 && differing.allSatisfy { $0.y == 0 && $0.z > 0 })
    }

    @Test("A sync with other settings does not trust the memo: everything is compared again, re-encoded")
    func otherSettings() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(try Self.tiles(), to: directory.file("source.mbtiles"))
        let source = try TileStoreLocation(parsing: directory.file("source.mbtiles"))
        let mirror = try TileStoreLocation(parsing: directory.file("mirror.mbtiles"))
        var options = TileSynchronizer.Options()
        options.transforms.rasterEncoding = Self.webpDroppingEmpty
        _ = try TileSynchronizer.sync(from: source, to: mirror, options: options)
        options.transforms.rasterEncoding = RasterReencoder.Encoding(format: .png)
        let again = try TileSynchronizer.sync(from: source, to: mirror, options: options)
        #expect(again.rasterReencoding.map { $0.reencoded + $0.keptSmaller } == 16, "15 pictures and one empty tile, each encoded once")
        #expect(again.added == 6 && again.replaced == 15)
        #expect(try StoreContents.tiles(mirror.address).values.allSatisfy { SniffedTileFormat(sniffing: $0).format == .png })
    }

    @Test("--skip-invalid counts a truncated tile and writes the others")
    func skipInvalid() throws {
        let directory = try TemporaryDirectory()
        var tiles = try Self.tiles()
        tiles[3] = Tile(coordinate: tiles[3].coordinate, data: tiles[3].data.prefix(30))
        try GeneratedStore.write(tiles, to: directory.file("in.mbtiles"))
        var options = TileConverter.Options()
        options.transforms.rasterEncoding = RasterReencoder.Encoding(format: .webp)
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("in.mbtiles")),
                                                to: try TileStoreLocation(parsing: directory.file("out.pmtiles")), options: options)
        #expect(summary.tilesWritten == 20)
        #expect(summary.invalidTiles.count == 1)
        #expect(summary.invalidTiles.named.first?.item == "tile \(tiles[3].coordinate)")
        #expect(summary.invalidTiles.named.first?.reason == "cannot be decoded as PNG: the data ends early (truncated PNG)")
    }
}
