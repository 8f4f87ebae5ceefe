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
        #expect(try source.openReader().metadata().declaresMapLibreTiles)
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
