import Foundation
import Testing
@testable import TileSync

@Suite("Merging: one tile encoding, vector layers united, the order sources share")
struct MergeEncodingTests {
    static func vector(_ coordinate: TileCoordinate, gzip: Bool) -> Data {
        let raw = Data([0x1A, 0x03] + Array("\(coordinate)".utf8))
        return gzip ? Data(((try? GzipCodec.compress(Array(raw), level: 6)) ?? [])) : raw
    }

    @Test("png and webp tiles are refused naming both stores; gzip and uncompressed vector tiles too, unless re-encoded")
    func refusedMixtures() throws {
        let stores = try KindStores()
        let origin = try TileCoordinate(parsing: "0/0/0")
        let png = try stores.write([Tile(coordinate: origin, data: GeneratedStore.bytes(for: origin))], kind: "mbtiles", name: "png")
        var noFormat = TileMetadata()
        noFormat["name"] = "webp"
        let webp = try stores.write([Tile(coordinate: origin, data: Data("RIFF\0\0\0\0WEBPVP8 ".utf8))], kind: "dir", name: "webp", metadata: noFormat)
        #expect(throws: TileStoreError(.invalidOptions, store: webp.address, item: "tile format",
                                       message: "holds webp tiles, but \(png.address) holds png: a merge needs one tile format",
                                       hint: "--tile-format webp (or png, jpeg) re-encodes every source's raster tiles into one")) {
            try TileStoreLocation.merging([png, webp], onDuplicate: .override).openReader()
        }
        var pbf = TileMetadata()
        pbf["format"] = "pbf"
        let tile = try TileCoordinate(parsing: "1/0/1")
        let gzipped = try stores.write([Tile(coordinate: tile, data: Self.vector(tile, gzip: true))], kind: "pmtiles", name: "gzip", metadata: pbf)
        let raw = try stores.write([Tile(coordinate: origin, data: Self.vector(origin, gzip: false))], kind: "tar", name: "raw", metadata: pbf)
        #expect(throws: TileStoreError(.invalidOptions, store: raw.address, item: "tile compression",
                                       message: "holds pbf tiles without compression, but \(gzipped.address) holds pbf tiles compressed with gzip: "
                                           + "a merge needs one tile compression",
                                       hint: "--compress gzip (or zstd, brotli, none) re-encodes every source's tiles into one")) {
            try TileStoreLocation.merging([gzipped, raw], onDuplicate: .abort).openReader()
        }
        let merged = TileStoreLocation.merging([gzipped, raw], onDuplicate: .abort, compressionsMayDiffer: true)
        var options = TileConverter.Options()
        options.transforms.compression = .gzip
        let destination = try stores.location("mbtiles", "merged")
        #expect(try TileConverter.convert(from: merged, to: destination, options: options).tilesWritten == 2)
        let written = try stores.tiles(destination)
        #expect(written[origin] == Self.vector(origin, gzip: true))
        #expect(written[tile] == Self.vector(tile, gzip: true))
    }

    @Test("vector_layers are united by id: fields united, zooms widened, layers in the order they first appear")
    func vectorLayers() throws {
        let stores = try KindStores()
        var first = GeneratedStore.defaultMetadata
        first["json"] = #"{"vector_layers":[{"id":"roads","fields":{"class":"String"},"minzoom":4,"maxzoom":10},{"id":"water","fields":{}}],"tilestats":{"n":1}}"#
        var second = GeneratedStore.defaultMetadata
        second["json"] = #"{"vector_layers":[{"id":"places","fields":{"name":"String"}},{"id":"roads","fields":{"class":"Text","ref":"String"},"minzoom":2,"maxzoom":8,"description":"later"}],"tilestats":{"n":2}}"#
        let a = try stores.write(GeneratedStore.pyramid(maxZoom: 0), kind: "mbtiles", name: "a", metadata: first)
        let b = try stores.write(GeneratedStore.pyramid(maxZoom: 0), kind: "pmtiles", name: "b", metadata: second)
        let ignored = try TileStoreLocation.merging([a, b], onDuplicate: .ignore).openReader().metadata()
        #expect(ignored["json"] == #"{"tilestats":{"n":1},"vector_layers":[{"description":"later","fields":{"class":"String","ref":"String"},"id":"roads","maxzoom":10,"minzoom":2},{"fields":{},"id":"water"},{"fields":{"name":"String"},"id":"places"}]}"#)
        let overridden = try TileStoreLocation.merging([a, b], onDuplicate: .override).openReader().metadata()
        #expect(overridden["json"] == #"{"tilestats":{"n":2},"vector_layers":[{"description":"later","fields":{"class":"Text","ref":"String"},"id":"roads","maxzoom":10,"minzoom":2},{"fields":{},"id":"water"},{"fields":{"name":"String"},"id":"places"}]}"#)
        var plain = GeneratedStore.defaultMetadata
        plain["json"] = "not json"
        let c = try stores.write(GeneratedStore.pyramid(maxZoom: 0), kind: "mbtiles", name: "c", metadata: plain)
        #expect(try TileStoreLocation.merging([c, a], onDuplicate: .ignore).openReader().metadata()["json"] == "not json")
    }

    @Test("The merge streams in the order most sources have; the others are sorted",
          arguments: [([TileOrder.zoomColumnTMSRow, .tileID, .tileID, .unordered], TileOrder.tileID),
                      ([.zoomColumnTMSRow, .tileID], .zoomColumnTMSRow), ([.unordered], .zoomColumnRow), ([], .zoomColumnRow)])
    func sharedOrder(orders: [TileOrder], expected: TileOrder) {
        #expect(MergedSources.sharedOrder(orders) == expected)
    }

    @Test("Every kind as a source and as the destination, beside stores of other kinds", arguments: KindStores.kindNames)
    func everyKind(kind: String) throws {
        let stores = try KindStores()
        let one = try TileCoordinate(parsing: "1/1/0")
        let base = try stores.write(GeneratedStore.pyramid(maxZoom: 2), kind: kind, name: "base")
        let zoom3 = (try TileRange.world(z: 3)).map { Tile(coordinate: $0, data: GeneratedStore.bytes(for: $0)) }
        let detail = try stores.write(zoom3 + [Tile(coordinate: one, data: GeneratedStore.bytes(for: one, salt: "detail"))],
                                      kind: kind == "pmtiles" ? "mbtiles" : "pmtiles", name: "detail")
        let tarred = try stores.write([Tile(coordinate: one, data: GeneratedStore.bytes(for: one, salt: "last"))], kind: "tar", name: "last")
        let merged = TileStoreLocation.merging([base, detail, tarred], onDuplicate: .override)
        let destination = try stores.location(kind, "merged")
        let summary = try TileConverter.convert(from: merged, to: destination)
        #expect(summary.tilesWritten == 21 + 64)
        let tiles = try stores.tiles(destination)
        #expect(tiles.count == 85)
        #expect(tiles[one] == GeneratedStore.bytes(for: one, salt: "last"))
        #expect(tiles[try TileCoordinate(parsing: "2/3/1")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "2/3/1")))
        #expect(tiles[try TileCoordinate(parsing: "3/5/6")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "3/5/6")))
        #expect((merged.kind as? MergedStoreKind)?.tally?.tilesGiven == [20, 64, 1])
        let tally = try #require((merged.kind as? MergedStoreKind)?.tally)
        #expect(tally.heldAlike == 0 && tally.decidedByPolicy + tally.decidedUncompared == 1,
                "1/1/0, held by all three: decided by their listed sizes, or unread where an MBTiles (also a tar's index) lists none")
    }
}
