import Foundation
import Testing
@testable import TileSync

@Suite("The tile transform pipeline: stages in order, their outcomes joined, the metadata adjusted")
struct TileTransformPipelineTests {
    static func rewriter(_ settings: TileTransformSettings, format: String = "png") throws -> TileRewriter? {
        let directory = try TemporaryDirectory()
        var metadata = GeneratedStore.defaultMetadata
        metadata["format"] = format
        try GeneratedStore.write([Tile(coordinate: TileCoordinate(unchecked: 0, 0, 0), data: Data([0x1A, 0x00]))], to: directory.file("s.mbtiles"),
                                 metadata: metadata)
        return try withExtendedLifetime(directory) { try TileRewriter(settings: settings, reader: try TileStoreLocation(parsing: directory.file("s.mbtiles")).openReader()) }
    }

    static func settings(compression: TileCompression? = nil, layerFilter: VectorTile.LayerFilter? = nil) -> TileTransformSettings {
        var settings = TileTransformSettings()
        settings.compression = compression
        settings.layerFilter = layerFilter
        return settings
    }

    @Test("The command line's values become each transform's settings; refused values say what they must be")
    func parsing() throws {
        let settings = try TileTransforms.settings(parsing: ["compress": "zstd", "layer": "roads,water\nplaces", "exclude-field": "*:name:en",
                                                              "drop-empty": ""])
        #expect(settings.compression == .zstd && settings.rasterEncoding?.dropEmpty == true && settings.rasterEncoding?.format == nil)
        #expect(settings.layerFilter?.keptLayers == ["roads", "water", "places"])
        #expect(settings.layerFilter?.droppedFields == [VectorTile.LayerFilter.Field(layer: nil, name: "name:en")])
        #expect(try TileTransforms.settings(parsing: [:]).isEmpty)
        #expect(throws: TileTransformSettings.ValueError("--compress must be gzip, none, zstd or brotli, not 'zlib'")) {
            try TileTransforms.settings(parsing: ["compress": "zlib"])
        }
        #expect(throws: TileTransformSettings.ValueError("--layer has an empty name in 'a,,b'")) {
            try TileTransforms.settings(parsing: ["layer": "a,,b"])
        }
        #expect(TileTransforms.commandLineOptions.map(\.name) == ["layer", "exclude-layer", "include-field", "exclude-field", "keep-empty-tiles",
                                                                  "compress", "tile-format", "quality", "lossless", "background", "drop-empty"])
    }

    static func vectorTile() throws -> Tile {
        Tile(coordinate: TileCoordinate(unchecked: 1, 0, 0), data: Data(try GzipCodec.compress(VectorLayerFilterTests.tile.encoded())))
    }

    @Test("No settings, no rewriter; the stages run filter, recompression, raster in that order and say so in the identity")
    func stagesInOrder() throws {
        #expect(try Self.rewriter(TileTransformSettings()) == nil)
        var filter = VectorTile.LayerFilter()
        filter.droppedLayers = ["roads"]
        let rewriter = try #require(try Self.rewriter(Self.settings(compression: .zstd, layerFilter: filter)))
        #expect(rewriter.identity == "vector without layers roads, compress zstd")
        #expect(rewriter.targetCompression == .zstd && rewriter.targetFormat == nil && !rewriter.reencodesRaster)
    }

    @Test("A vector tile filtered then recompressed; a raster tile passed by --compress; a tile left without layers dropped")
    func outcomes() throws {
        var filter = VectorTile.LayerFilter()
        filter.keptLayers = ["places"]
        let rewriter = try #require(try Self.rewriter(Self.settings(compression: TileCompression.none, layerFilter: filter)))
        let codecs = TileRecompressor.Codecs()
        guard case .rewritten(let written) = try rewriter.rewrite(try Self.vectorTile(), codecs: codecs) else {
            Issue.record("the vector tile was not rewritten")
            return
        }
        #expect(written.data == VectorTile(layers: [VectorLayerFilterTests.tile.layers[0]]).encoded())
        let png = Tile(coordinate: TileCoordinate(unchecked: 1, 1, 0), data: GeneratedStore.bytes(for: TileCoordinate(unchecked: 1, 1, 0)))
        guard case .unchanged(rasterPassed: true, smaller: false) = try rewriter.rewrite(png, codecs: codecs) else {
            Issue.record("the raster tile was not passed")
            return
        }
        filter.keptLayers = ["rivers"]
        let emptying = try #require(try Self.rewriter(Self.settings(layerFilter: filter)))
        guard case .dropped(.noLayersLeft) = try emptying.rewrite(try Self.vectorTile(), codecs: codecs) else {
            Issue.record("the emptied tile was not dropped")
            return
        }
        #expect(emptying.notes() == ["no tile holds a layer 'rivers' (named by the layer filter)"])
    }

    @Test("Bytes of no known format are read as a vector tile: one that begins with another field than a layer is filtered; one that does not decode is an invalid tile where the store says pbf, and passes elsewhere")
    func unknownBytes() throws {
        var filter = VectorTile.LayerFilter()
        filter.droppedLayers = ["roads"]
        let codecs = TileRecompressor.Codecs()
        let extended = Tile(coordinate: TileCoordinate(unchecked: 2, 1, 1), data: Data([0x80, 0x01, 0x05]) + VectorLayerFilterTests.tile.encoded())
        let garbage = Tile(coordinate: TileCoordinate(unchecked: 2, 1, 2), data: Data([0x18, 0x05]))
        for format in ["pbf", "png"] {
            let rewriter = try #require(try Self.rewriter(Self.settings(layerFilter: filter), format: format))
            guard case .rewritten(let written) = try rewriter.rewrite(extended, codecs: codecs) else {
                Issue.record("the tile beginning with field 16 was not filtered (\(format))")
                continue
            }
            #expect(written.data == VectorTile(layers: [VectorLayerFilterTests.tile.layers[0]]).encoded())
            if format == "pbf" {
                let error = #expect(throws: TileStoreError.self) { try rewriter.rewrite(garbage, codecs: codecs) }
                #expect(error?.kind == .invalidTile && error?.item == "tile 2/1/2")
                #expect(error?.message == "is not a vector tile the layer filter can read: layer 'layer 0': a layer field of wire type 0 (byte 0)")
            } else {
                guard case .unchanged = try rewriter.rewrite(garbage, codecs: codecs) else {
                    Issue.record("bytes of no format in a png store were not passed")
                    continue
                }
            }
        }
    }

    @Test("The metadata gets each stage's changes: the compression written and the layers that remain")
    func metadata() throws {
        var filter = VectorTile.LayerFilter()
        filter.droppedLayers = ["roads"]
        let rewriter = try #require(try Self.rewriter(Self.settings(compression: .zlib, layerFilter: filter)))
        var metadata = TileMetadata()
        metadata["json"] = #"{"vector_layers":[{"id":"places","fields":{}},{"id":"roads","fields":{}}]}"#
        rewriter.adjust(&metadata)
        #expect(metadata["compression"] == "gzip")
        #expect(metadata["json"] == #"{"vector_layers":[{"id":"places","fields":{}}]}"#)
    }
}
