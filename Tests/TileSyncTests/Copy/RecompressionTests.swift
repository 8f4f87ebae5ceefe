import Foundation
import Testing
@testable import TileSync

@Suite("--compress: vector tiles re-encoded on the way, exact payloads after decoding")
struct RecompressionTests {
    static func decode(_ data: Data, _ compression: TileCompression) throws -> [UInt8] {
        switch compression {
        case .none: Array(data)
        case .gzip, .zlib: try GzipCodec.decompress(data, limit: 1 << 20)
        case .zstd: try ZstdCodec.decompress(data, limit: 1 << 20)
        case .brotli: try BrotliCodec.decompress(data, limit: 1 << 20)
        }
    }

    @Test("Tiles of another format or compression than the first are stored as they are and counted in one warning naming the first of them")
    func mixedFormats() throws {
        let directory = try TemporaryDirectory()
        let payload = GeneratedStore.vectorPayload(TileCoordinate(unchecked: 0, 0, 0))
        let tiles = [
            Tile(coordinate: TileCoordinate(unchecked: 0, 0, 0), data: Data(try GzipCodec.compress(payload))),
            Tile(coordinate: TileCoordinate(unchecked: 1, 0, 0), data: Data(try GzipCodec.compress(payload, zlibHeader: true))),
            Tile(coordinate: TileCoordinate(unchecked: 1, 1, 0), data: Data(payload)),
            Tile(coordinate: TileCoordinate(unchecked: 1, 1, 1), data: Data(try GzipCodec.compress(payload))),
        ]
        var metadata = TileMetadata()
        metadata["format"] = "pbf"
        try GeneratedStore.write(tiles, to: directory.file("mixed.mbtiles"), metadata: metadata)
        let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("mixed.mbtiles")),
                                                to: try TileStoreLocation(parsing: directory.file("out-folder")))
        #expect(summary.warnings.filter { $0.contains("like the first tile") }
            == ["2 tiles are not pbf (gzip) like the first tile (the first of them: tile 1/0/0 is pbf (zlib)); they are stored as they are"])
        #expect(summary.tilesWritten == 4)
    }

    @Test("Every target into every kind: the stored bytes have the target's compression and decode to the payload",
          arguments: [TileCompression.none, .gzip, .zstd, .brotli], ["out.mbtiles", "out-folder", "out.tar", "out.pmtiles"])
    func targets(target: TileCompression, destination: String) throws {
        let directory = try TemporaryDirectory()
        let (source, payloads) = try GeneratedStore.gzipVectorSource(in: directory)
        let output = try TileStoreLocation(parsing: directory.file(destination))
        var options = TileConverter.Options()
        options.transforms.compression = target
        let summary = try TileConverter.convert(from: source, to: output, options: options)
        #expect(summary.tilesWritten == 21 && summary.warnings.isEmpty)
        let reader = try output.openReader()
        #expect(try reader.metadata()["compression"] == target.rawValue)
        #expect(try reader.declaredTileCompression() == target)
        let stored = try StoreContents.tiles(output.address)
        #expect(stored.count == 21)
        for (coordinate, data) in stored {
            if target != .brotli { #expect(SniffedTileFormat(sniffing: data) == SniffedTileFormat(.pbf, target), "\(coordinate)") }
            #expect(try Self.decode(data, target) == payloads[coordinate], "\(coordinate)")
        }
        if let pmtiles = reader as? PMTilesReader {
            #expect(pmtiles.header.tileCompression == PMTilesHeader.Compression(target))
            #expect(pmtiles.header.tileType == .mvt)
        }
    }

    @Test("Back again: brotli (known from the PMTiles header), zstd and none decode to the same payloads as gzip")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let (source, payloads) = try GeneratedStore.gzipVectorSource(in: directory)
        var current = source
        for (index, target) in [TileCompression.brotli, .zstd, .none, .gzip].enumerated() {
            let next = try TileStoreLocation(parsing: directory.file("step\(index).pmtiles"))
            var options = TileConverter.Options()
            options.transforms.compression = target
            _ = try TileConverter.convert(from: current, to: next, options: options)
            for (coordinate, data) in try StoreContents.tiles(next.address) {
                #expect(try Self.decode(data, target) == payloads[coordinate], "\(target) \(coordinate)")
            }
            current = next
        }
        let gzipAgain = try StoreContents.tiles(current.address)
        #expect(gzipAgain.count == 21)
        #expect(gzipAgain.allSatisfy { SniffedTileFormat(sniffing: $0.value) == SniffedTileFormat(.pbf, .gzip) })
    }

    @Test("Raster tiles pass unchanged with one warning; bytes that are no known compression fail, or are skipped and counted")
    func rasterAndUnknown() throws {
        let directory = try TemporaryDirectory()
        let raster = directory.file("raster.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: raster)
        var options = TileConverter.Options()
        options.transforms.compression = .gzip
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: raster), to: TileStoreLocation(parsing: directory.file("r.mbtiles")), options: options)
        #expect(summary.warnings == ["5 raster tiles were stored as they are: --compress applies to vector tiles"])
        #expect(try StoreContents.tiles(directory.file("r.mbtiles")) == StoreContents.tiles(raster))

        let odd = directory.file("odd.mbtiles")
        let coordinate = try TileCoordinate(z: 0, x: 0, y: 0)
        try GeneratedStore.write([Tile(coordinate: coordinate, data: Data([0x05, 0x06, 0x07]))], to: odd, metadata: TileMetadata())
        #expect(throws: TileStoreError(.invalidTile, store: odd, item: "tile 0/0/0",
                                       message: "is neither gzip, zlib, zstd nor an uncompressed vector or JSON tile, so it cannot be recompressed",
                                       hint: "if the tiles are brotli, say so in the metadata: compression=brotli")) {
            try TileConverter.convert(from: TileStoreLocation(parsing: odd), to: TileStoreLocation(parsing: directory.file("o.mbtiles")), options: options)
        }
        options.skipInvalid = true
        let skipped = try TileConverter.convert(from: TileStoreLocation(parsing: odd), to: TileStoreLocation(parsing: directory.file("o2.mbtiles")), options: options)
        #expect(skipped.tilesWritten == 0 && skipped.invalidTiles.count == 1)
    }

    @Test("sync --compress writes re-encoded tiles and a second sync has nothing to do")
    func sync() throws {
        let directory = try TemporaryDirectory()
        let (source, payloads) = try GeneratedStore.gzipVectorSource(in: directory)
        let mirror = try TileStoreLocation(parsing: directory.file("mirror.mbtiles"))
        _ = try TileConverter.convert(from: source, to: mirror)
        var options = TileSynchronizer.Options()
        options.transforms.compression = .zstd
        let first = try TileSynchronizer.sync(from: source, to: mirror, options: options)
        #expect(first.replaced == 21)
        for (coordinate, data) in try StoreContents.tiles(mirror.address) {
            #expect(try Self.decode(data, .zstd) == payloads[coordinate])
        }
        #expect(try mirror.openReader().metadata()["compression"] == "zstd")
        let second = try TileSynchronizer.sync(from: source, to: mirror, options: options)
        #expect(second.isInSync && second.unchanged == 21)
    }
}
