import Foundation
import Testing
@testable import TileSync

@Suite("A store that does not compute agg_tiles_hash carries the source's only while it holds exactly the source's tiles")
struct CarriedAggregateHashTests {
    /// An MBTiles of gzip vector tiles (zooms 0-2) with the `agg_tiles_hash` its writer computed.
    static func source(in directory: TemporaryDirectory) throws -> (TileStoreLocation, ContentHash) {
        let tiles = try (0...2).flatMap { z in
            try TileRange.world(z: z).map { coordinate in
                Tile(coordinate: coordinate, data: Data(try GzipCodec.compress(VectorTileTests.layer { $0.stringField(1, "tile \(coordinate)"); $0.varintField(15, 2) })))
            }
        }
        var metadata = GeneratedStore.defaultMetadata
        metadata["format"] = "pbf"
        let path = directory.file("source.mbtiles")
        try GeneratedStore.write(tiles, to: path, metadata: metadata)
        let location = try TileStoreLocation(parsing: path)
        let stored = try #require(try location.openReader().metadata()["agg_tiles_hash"])
        #expect(stored == (try location.openReader().aggregateHash().hex))
        return (location, try location.openReader().aggregateHash())
    }

    @Test("A plain convert into a folder, a tar and a PMTiles keeps the source's hash; any transform leaves it out", arguments: ["dir", "tar", "pmtiles"])
    func convertWithTransforms(kind: String) throws {
        let directory = try TemporaryDirectory()
        let (source, hash) = try Self.source(in: directory)
        let name = { (stem: String) in kind == "dir" ? directory.file(stem) : directory.file("\(stem).\(kind)") }
        let plain = try TileStoreLocation(parsing: name("plain"))
        _ = try TileConverter.convert(from: source, to: plain)
        #expect(try plain.openReader().metadata()["agg_tiles_hash"] == hash.hex)
        #expect(try StoreVerifier.verify(plain).isClean)

        var recompressed = TileConverter.Options()
        recompressed.transforms.compression = TileCompression.none
        var filtered = TileConverter.Options()
        var layers = VectorTile.LayerFilter()
        layers.keptLayers = ["tile 0/0/0"]
        filtered.transforms.layerFilter = layers
        for (stem, options) in [("recompressed", recompressed), ("filtered", filtered)] {
            let destination = try TileStoreLocation(parsing: name(stem))
            _ = try TileConverter.convert(from: source, to: destination, options: options)
            let metadata = try destination.openReader().metadata()
            #expect(metadata["agg_tiles_hash"] == nil, "\(stem)")
            #expect(metadata["custom key"] == "kept ✓", "\(stem)")
            #expect(try StoreVerifier.verify(destination).counts[.aggregateHash] == nil, "\(stem)")
        }
    }

    @Test("A sync into a folder that keeps tiles the source lacks leaves the hash out; one that mirrors the source writes the source's")
    func syncKeepingTiles() throws {
        let directory = try TemporaryDirectory()
        let (source, _) = try Self.source(in: directory)
        let folder = try TileStoreLocation(parsing: directory.file("folder"))
        _ = try TileConverter.convert(from: source, to: folder)
        var narrower = TileConverter.Options()
        narrower.filter = try TileFilter(minZoom: 0, maxZoom: 1)
        let smaller = try TileStoreLocation(parsing: directory.file("smaller.mbtiles"))
        _ = try TileConverter.convert(from: source, to: smaller, options: narrower)
        let smallerHash = try smaller.openReader().aggregateHash()

        let keeping = try TileSynchronizer.sync(from: smaller, to: folder)
        #expect(keeping.kept == 16 && keeping.metadataChanged)
        #expect(try folder.openReader().metadata()["agg_tiles_hash"] == nil)
        #expect(try StoreVerifier.verify(folder).counts[.aggregateHash] == nil)

        var mirror = TileSynchronizer.Options()
        mirror.delete = true
        let mirrored = try TileSynchronizer.sync(from: smaller, to: folder, options: mirror)
        #expect(mirrored.deleted == 16 && mirrored.kept == 0)
        #expect(try folder.openReader().metadata()["agg_tiles_hash"] == smallerHash.hex)
        #expect(try StoreVerifier.verify(folder).isClean)
    }
}
