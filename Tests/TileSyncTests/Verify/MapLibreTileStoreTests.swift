import Foundation
import Testing
@testable import TileSync

@Suite("A store that declares MapLibre Tiles is carried, never read as Mapbox Vector Tiles")
struct MapLibreTileStoreTests {
    /// Two tiles of a store whose format says MLT; the second begins with 0x1A, as an MVT layer
    /// field does, so only the declaration tells it apart.
    static func store(in directory: TemporaryDirectory, format: String) throws -> TileStoreLocation {
        var metadata = GeneratedStore.defaultMetadata
        metadata["format"] = format
        let tiles = [
            Tile(coordinate: TileCoordinate(unchecked: 0, 0, 0), data: Data([0x03, 0x01, 0x02, 0x03, 0x04])),
            Tile(coordinate: TileCoordinate(unchecked: 1, 0, 0), data: Data([0x1A, 0x01, 0x02])),
        ]
        let path = directory.file("mlt.mbtiles")
        try GeneratedStore.write(tiles, to: path, metadata: metadata)
        return try TileStoreLocation(parsing: path)
    }

    @Test("The layer filter refuses the store by its format before reading a tile", arguments: ["application/vnd.maplibre-vector-tile", "mlt", " MLT "])
    func layerFilterRefuses(format: String) throws {
        let directory = try TemporaryDirectory()
        let source = try Self.store(in: directory, format: format)
        #expect(try source.openReader().metadata().format == .mlt)
        var options = TileConverter.Options()
        var filter = VectorTile.LayerFilter()
        filter.keptLayers = ["roads"]
        options.transforms.layerFilter = filter
        let destination = try TileStoreLocation(parsing: directory.file("out.mbtiles"))
        let error = try #require(throws: TileStoreError.self) { try TileConverter.convert(from: source, to: destination, options: options) }
        #expect(error.kind == .unsupported)
        #expect(error.message == "holds MapLibre Tiles (format \(format)); the layer filter reads Mapbox Vector Tiles only")
        #expect(!FileManager.default.fileExists(atPath: directory.file("out.mbtiles")))
        _ = try TileConverter.convert(from: source, to: destination)
        #expect(try StoreComparison.compare(source, destination).isIdentical)
    }

    @Test("MLT is known by the declaration alone: in the compression its magic names, an image's magic still wins")
    func sniffing() {
        #expect(TileFormat(declared: "mlt") == .mlt && TileFormat(declared: "application/vnd.maplibre-vector-tile") == .mlt)
        #expect(TileFormat.mlt.fileExtension == "mlt" && TileFormat.mlt.mediaType == "application/vnd.maplibre-vector-tile")
        let cases: [([UInt8], TileCompression?, SniffedTileFormat)] = [
            ([0x1A, 0x01, 0x02], nil, SniffedTileFormat(.mlt)), ([0x03, 0x01], nil, SniffedTileFormat(.mlt)),
            ([0x1F, 0x8B, 0x08, 0x00], nil, SniffedTileFormat(.mlt, .gzip)), ([0x28, 0xB5, 0x2F, 0xFD], nil, SniffedTileFormat(.mlt, .zstd)),
            ([0x1F, 0x8B, 0x08, 0x00], .brotli, SniffedTileFormat(.mlt, .brotli)), ([0x7B, 0x7D], nil, SniffedTileFormat(.mlt)),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], nil, SniffedTileFormat(.png)),
        ]
        for (bytes, compression, expected) in cases {
            #expect(SniffedTileFormat(sniffing: bytes, declaredCompression: compression, declaredFormat: .mlt) == expected, "\(bytes)")
        }
        #expect(SniffedTileFormat(sniffing: [0x1A, 0x01], declaredCompression: nil, declaredFormat: .pbf) == SniffedTileFormat(.pbf))
    }

    @Test("Converted as bytes: .mlt files in a folder and a tar, back identical; recompressed; a PMTiles of type 6; a GeoPackage refuses them")
    func conversions() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.store(in: directory, format: "application/vnd.maplibre-vector-tile")
        for name in ["folder", "tiles.tar"] {
            let copy = try TileStoreLocation(parsing: directory.file(name))
            let summary = try TileConverter.convert(from: source, to: copy)
            #expect(summary.warnings.isEmpty, "\(name): \(summary.warnings)")
            let back = try TileStoreLocation(parsing: directory.file("\(name)-back.mbtiles"))
            _ = try TileConverter.convert(from: copy, to: back)
            #expect(try StoreComparison.compare(source, back).isIdentical, "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: directory.file("folder/1/0/0.mlt")))
        var gzip = TileConverter.Options()
        gzip.transforms.compression = .gzip
        let gzipped = try TileStoreLocation(parsing: directory.file("gzip.pmtiles"))
        _ = try TileConverter.convert(from: source, to: gzipped, options: gzip)
        let reader = try #require(try gzipped.openReader() as? PMTilesReader)
        #expect(reader.header.tileType == .mlt && reader.header.tileCompression == .gzip)
        #expect(try TileCompression.gzip.decompressed(#require(try reader.tile(at: TileCoordinate(unchecked: 1, 0, 0)))) == Data([0x1A, 0x01, 0x02]))
        #expect(try StoreVerifier.verify(gzipped, deep: true).isClean)
        let geoPackage = try TileStoreLocation(parsing: directory.file("m.gpkg"))
        let error = try #require(throws: TileStoreError.self) { try TileConverter.convert(from: source, to: geoPackage) }
        #expect(error.kind == .unsupported && error.item == "table \"m\"")
        #expect(error.message == "the tiles are mlt; a GeoPackage tile table holds PNG, JPEG or WebP images, or Mapbox Vector Tiles")
        #expect(!FileManager.default.fileExists(atPath: directory.file("m.gpkg")))
    }

    @Test("verify --deep checks the compression only and says so; info --stats counts no layers and no undecoded tile")
    func deepVerifyAndStatistics() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.store(in: directory, format: "mlt")
        let report = try StoreVerifier.verify(source, deep: true)
        #expect(report.isClean && report.tilesChecked == 2 && report.counts[.content] == nil)
        #expect(report.notes.contains("MapLibre Tiles are not decoded: only their compression is checked"))
        let statistics = try TileStatistics.compute(source, layers: true)
        #expect(statistics.layers.isEmpty && statistics.undecodedTiles == 0 && statistics.total.tiles == 2 && statistics.repeatedTiles == 0)
        var pbf = GeneratedStore.defaultMetadata
        pbf["format"] = "pbf"
        try GeneratedStore.write([Tile(coordinate: TileCoordinate(unchecked: 1, 0, 0), data: Data([0x1A, 0x01, 0x02]))],
                                 to: directory.file("mvt.mbtiles"), metadata: pbf)
        let mvt = try StoreVerifier.verify(TileStoreLocation(parsing: directory.file("mvt.mbtiles")), deep: true)
        #expect(mvt.counts[.content] == 1, "the same bytes in a store that says pbf are a broken vector tile")
    }
}
