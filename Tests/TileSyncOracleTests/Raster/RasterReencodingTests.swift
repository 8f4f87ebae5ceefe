import Foundation
import Testing
@testable import TileSync

@Suite("--tile-format on real raster stores: lossless proven pixel by pixel, lossy measured, sizes and metadata",
       .enabled(if: Fixtures.available, Fixtures.missingMessage), .enabled(if: RasterReencoder.isAvailable))
struct RasterReencodingTests {
    /// Raster fixtures of every format: PNG (palette and RGBA), WebP (lossy, 512 and 1024 pixels).
    static let stores = [
        "node-mbtiles/plain_1.mbtiles", "protomaps-PMTiles/spec-v3/stamen_toner(raster)CC-BY+ODbL_z3.pmtiles",
        "protomaps-PMTiles/spec-v3/usgs-mt-whitney-8-15-webp-512.pmtiles", "martin/mbtiles/webp.mbtiles",
        "tilelive-file/readonly", "martin/mbtiles/geography-class-png.mbtiles", "mapbox-upload-validate/valid-webp.mbtiles",
    ]

    static func convert(_ source: String, to destination: String, _ encoding: RasterReencoder.Encoding) throws -> TileConverter.Summary {
        var options = TileConverter.Options()
        options.transforms.rasterEncoding = encoding
        return try TileConverter.convert(from: try TileStoreLocation(parsing: source), to: try TileStoreLocation(parsing: destination), options: options)
    }

    static var lossless: RasterReencoder.Encoding {
        var encoding = RasterReencoder.Encoding(format: .webp)
        encoding.lossless = true
        return encoding
    }

    @Test("Lossless WebP and re-encoded PNG: every tile decodes to the source's RGBA", arguments: stores)
    func losslessProven(store: String) throws {
        let directory = try TemporaryDirectory()
        let source = Fixtures.path(store)
        let count = try StoreContents.tiles(source).count
        for (name, encoding) in [("webp.pmtiles", Self.lossless), ("png.mbtiles", RasterReencoder.Encoding(format: .png))] {
            let destination = directory.file(name)
            let summary = try Self.convert(source, to: destination, encoding)
            #expect(summary.tilesWritten == count)
            let tally = try #require(summary.rasterReencoding)
            #expect(tally.reencoded + tally.keptSmaller == count - tally.droppedEmpty)
            let (compared, differing) = try RasterSamples.pixelDifferences(source, destination)
            #expect(compared == count && differing.isEmpty, "\(store) -> \(name): \(differing.prefix(5))")
            let expected = encoding.format == .webp ? TileFormat.webp : .png
            #expect(try StoreContents.tiles(destination).values.allSatisfy { SniffedTileFormat(sniffing: $0).format == expected })
            #expect(try TileStoreLocation(parsing: destination).openReader().metadata()["format"] == expected.rawValue)
        }
    }

    @Test("A JPEG store (made here from plain_1 over white) re-encoded losslessly keeps the JPEG's decoded pixels")
    func jpegSource() throws {
        let directory = try TemporaryDirectory()
        var jpeg = RasterReencoder.Encoding(format: .jpeg)
        jpeg.background = RasterReencoder.Color(red: 255, green: 255, blue: 255)
        let jpegStore = directory.file("jpeg.mbtiles")
        _ = try Self.convert(Fixtures.path("node-mbtiles/plain_1.mbtiles"), to: jpegStore, jpeg)
        #expect(try StoreContents.tiles(jpegStore).values.allSatisfy { SniffedTileFormat(sniffing: $0).format == .jpeg })
        for (name, encoding) in [("webp.mbtiles", Self.lossless), ("png-folder", RasterReencoder.Encoding(format: .png))] {
            _ = try Self.convert(jpegStore, to: directory.file(name), encoding)
            let (compared, differing) = try RasterSamples.pixelDifferences(jpegStore, directory.file(name))
            #expect(compared == 285 && differing.isEmpty, "\(name)")
        }
    }

    @Test("Lossy WebP and JPEG: every tile decodes at its size; PSNR against the source per store is reported",
          arguments: ["node-mbtiles/plain_1.mbtiles", "protomaps-PMTiles/spec-v3/stamen_toner(raster)CC-BY+ODbL_z3.pmtiles",
                      "protomaps-PMTiles/spec-v3/usgs-mt-whitney-8-15-webp-512.pmtiles"])
    func lossyMeasured(store: String) throws {
        let directory = try TemporaryDirectory()
        let source = try StoreContents.tiles(Fixtures.path(store))
        var jpeg = RasterReencoder.Encoding(format: .jpeg)
        jpeg.background = RasterReencoder.Color(red: 255, green: 255, blue: 255)
        for (name, encoding) in [("webp.mbtiles", RasterReencoder.Encoding(format: .webp)), ("jpeg.mbtiles", jpeg)] {
            _ = try Self.convert(Fixtures.path(store), to: directory.file(name), encoding)
            let written = try StoreContents.tiles(directory.file(name))
            #expect(written.count == source.count)
            var lowest = Double.infinity, total = 0.0
            for (coordinate, data) in source {
                var original = try RasterReencoder.decode(data)
                if encoding.format == .jpeg {
                    original = RasterReencoder.Image(width: original.width, height: original.height,
                                           rgba: original.rgb(over: RasterReencoder.Color(red: 255, green: 255, blue: 255)).chunked(into: 3).flatMap { $0 + [255] })
                }
                let decoded = try RasterReencoder.decode(try #require(written[coordinate]))
                #expect(decoded.width == original.width && decoded.height == original.height, "\(coordinate)")
                let psnr = min(RasterSamples.psnr(original, decoded), 99)
                lowest = min(lowest, psnr)
                total += psnr
            }
            print("PSNR \(store) as \(encoding.formatDescription): mean \(String(format: "%.1f", total / Double(source.count))) dB, lowest \(String(format: "%.1f", lowest)) dB")
            #expect(lowest > 20, "\(store) \(name)")
        }
    }

    @Test("Re-encoded PNG that is not smaller keeps the source's bytes, counted; the rest is smaller")
    func keepsSmaller() throws {
        let directory = try TemporaryDirectory()
        let source = Fixtures.path("node-mbtiles/plain_1.mbtiles"), destination = directory.file("png.mbtiles")
        let tally = try #require(try Self.convert(source, to: destination, RasterReencoder.Encoding(format: .png)).rasterReencoding)
        let before = try StoreContents.tiles(source), after = try StoreContents.tiles(destination)
        let same = before.filter { after[$0.key] == $0.value }.count
        #expect(tally.keptSmaller == same && same > 0)
        #expect(tally.reencoded == 285 - same)
        #expect(after.allSatisfy { $0.value.count <= before[$0.key]?.count ?? 0 })
        #expect(tally.bytesBefore == before.values.reduce(0) { $0 + $1.count })
        #expect(tally.bytesAfter == after.values.reduce(0) { $0 + $1.count })
    }

    @Test("PMTiles written as WebP say so in the header")
    func pmtilesHeader() throws {
        let directory = try TemporaryDirectory()
        _ = try Self.convert(Fixtures.path("node-mbtiles/plain_1.mbtiles"), to: directory.file("out.pmtiles"), Self.lossless)
        let reader = try #require(try TileStoreLocation(parsing: directory.file("out.pmtiles")).openReader() as? PMTilesReader)
        #expect(reader.header.tileType == .webp)
    }
}

extension RasterReencodingTests {
    @Test("A merge of a PNG and a WebP store becomes one lossless WebP store, each tile with its source's pixels")
    func mergedFormats() throws {
        let directory = try TemporaryDirectory()
        let png = Fixtures.path("node-mbtiles/plain_1.mbtiles")
        let webp = Fixtures.path("protomaps-PMTiles/spec-v3/usgs-mt-whitney-8-15-webp-512.pmtiles")
        let merged = TileStoreLocation.merging([try TileStoreLocation(parsing: png), try TileStoreLocation(parsing: webp)],
                                               onDuplicate: .abort, rasterFormatsMayDiffer: true)
        var options = TileConverter.Options()
        options.transforms.rasterEncoding = Self.lossless
        let destination = directory.file("merged.pmtiles")
        let summary = try TileConverter.convert(from: merged, to: try TileStoreLocation(parsing: destination), options: options)
        #expect(summary.tilesWritten == 285 + 50)
        #expect(try TileStoreLocation(parsing: destination).openReader().metadata()["format"] == "webp")
        let written = try StoreContents.tiles(destination)
        #expect(written.values.allSatisfy { SniffedTileFormat(sniffing: $0).format == .webp })
        for source in [png, webp] {
            for (coordinate, data) in try StoreContents.tiles(source) {
                let after = try RasterReencoder.decode(try #require(written[coordinate]))
                #expect(try RasterReencoder.decode(data).hasSamePixels(as: after), "\(coordinate)")
            }
        }
    }
}
