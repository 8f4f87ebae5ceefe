import Foundation
import Testing
@testable import TileSync

@Suite("Vector tiles: the layer and field filter")
struct VectorLayerFilterTests {
    /// Two layers: `places` (name, rank, capital over two features) and `roads` (class, name).
    static let tile = VectorTile(layers: [
        VectorTile.Layer(name: "places", keys: ["name", "rank", "capital"], values: [.string("Oslo"), .uint(3), .bool(true), .string("Bergen")],
                         features: [VectorTile.Feature(id: 1, type: .point, tags: [0, 0, 1, 1, 2, 2], geometry: [9, 50, 34]),
                                    VectorTile.Feature(id: 2, type: .point, tags: [0, 3, 1, 1], geometry: [9, 10, 10])]),
        VectorTile.Layer(name: "roads", keys: ["class", "name"], values: [.string("primary"), .string("E6")],
                         features: [VectorTile.Feature(type: .lineString, tags: [0, 0, 1, 1], geometry: [9, 4, 4, 18, 0, 16, 16, 0])]),
    ])

    static func filter(layers: Set<String> = [], dropping: Set<String> = [], fields: [String] = [], droppingFields: [String] = []) throws -> VectorTile.LayerFilter {
        var filter = VectorTile.LayerFilter()
        filter.keptLayers = layers
        filter.droppedLayers = dropping
        filter.keptFields = Set(try fields.map { try VectorTile.LayerFilter.Field(parsing: $0) })
        filter.droppedFields = Set(try droppingFields.map { try VectorTile.LayerFilter.Field(parsing: $0) })
        return filter
    }

    @Test("A filter that removes nothing gives no new bytes; a kept layer is copied byte for byte")
    func keepsBytes() throws {
        let bytes = Self.tile.encoded()
        #expect(try Self.filter().apply(to: bytes).data == nil)
        #expect(try Self.filter(layers: ["places", "roads"], droppingFields: ["population"]).apply(to: bytes).data == nil)
        let roads = try Self.filter(layers: ["roads"]).apply(to: bytes)
        #expect(roads.layerNames == ["places", "roads"])
        #expect(roads.data == VectorTile(layers: [Self.tile.layers[1]]).encoded())
        #expect(try Self.filter(dropping: ["places", "roads"]).apply(to: bytes).data == Data())
    }

    @Test("Dropped attributes leave the tags, keys and values that remain in use, renumbered")
    func prunesFields() throws {
        let filtered = try #require(try Self.filter(droppingFields: ["places:rank", "*:name"]).apply(to: Self.tile.encoded()).data)
        let layers = try VectorTile(decoding: filtered).layers
        #expect(layers[0].keys == ["capital"] && layers[0].values == [.bool(true)])
        #expect(layers[0].features.map(\.tags) == [[0, 0], []])
        #expect(layers[0].features.map(\.id) == [1, 2] && layers[0].features[0].geometry == [9, 50, 34])
        #expect(layers[1].keys == ["class"] && layers[1].values == [.string("primary")])
        let kept = try #require(try Self.filter(fields: ["places:name"]).apply(to: Self.tile.encoded()).data)
        let keptLayers = try VectorTile(decoding: kept).layers
        #expect(keptLayers[0].keys == ["name"] && keptLayers[0].values == [.string("Oslo"), .string("Bergen")])
        #expect(keptLayers[1] == Self.tile.layers[1])
    }

    @Test("Field names: LAYER:FIELD at the first colon, *: and a bare name for every layer, empty parts refused")
    func fieldParsing() throws {
        #expect(try VectorTile.LayerFilter.Field(parsing: "roads:class") == .init(layer: "roads", name: "class"))
        #expect(try VectorTile.LayerFilter.Field(parsing: "*:name:en") == .init(layer: nil, name: "name:en"))
        #expect(try VectorTile.LayerFilter.Field(parsing: "rank") == .init(layer: nil, name: "rank"))
        #expect(throws: VectorTile.LayerFilter.ParseError(text: ":x", reason: "an empty layer name before ':' (use *: for every layer)")) {
            try VectorTile.LayerFilter.Field(parsing: ":x")
        }
        #expect(throws: VectorTile.LayerFilter.ParseError(text: "a:", reason: "an empty field name after ':'")) {
            try VectorTile.LayerFilter.Field(parsing: "a:")
        }
        let filter = try Self.filter(fields: ["roads:class"], droppingFields: ["name"])
        #expect(filter.keepsField("class", inLayer: "roads") && !filter.keepsField("ref", inLayer: "roads"))
        #expect(filter.keepsField("rank", inLayer: "places") && !filter.keepsField("name", inLayer: "places"))
    }

    @Test("vector_layers and tilestats keep only the layers and fields that remain")
    func metadata() throws {
        let document = try JSONParser.parse(Array("""
            {"vector_layers":[{"id":"places","fields":{"name":"String","rank":"Number"}},{"id":"roads","fields":{"class":"String"}}],
             "tilestats":{"layerCount":2,"layers":[{"layer":"places","attributeCount":2,"attributes":[{"attribute":"name"},{"attribute":"rank"}]},
             {"layer":"roads","attributeCount":1,"attributes":[{"attribute":"class"}]}]},"other":1}
            """.utf8))
        let pruned = VectorLayerMetadata.pruned(document, by: try Self.filter(dropping: ["roads"], droppingFields: ["rank"]))
        #expect(JSONWriter.text(pruned) == #"{"vector_layers":[{"id":"places","fields":{"name":"String"}}],"tilestats":{"layerCount":1,"layers":[{"layer":"places","attributeCount":1,"attributes":[{"attribute":"name"}]}]},"other":1}"#)
    }

    /// A tile of the given layer records with an unknown field (7, a varint) after the first.
    static func tileWithUnknownField(_ layers: [VectorTile.Layer]) -> Data {
        var bytes = Data()
        for (index, layer) in layers.enumerated() {
            bytes += VectorTile(layers: [layer]).encoded()
            if index == 0 { bytes += [0x38, 0x2A] }
        }
        return bytes
    }

    @Test("Layers kept before the first change are written as they were; a field between layers goes only when the tile changes")
    func keptRunsAroundUnknownFields() throws {
        let third = VectorTile.Layer(name: "water", keys: [], values: [], features: [VectorTile.Feature(type: .point, tags: [], geometry: [9, 2, 2])])
        let bytes = Self.tileWithUnknownField(Self.tile.layers + [third])
        #expect(try Self.filter(dropping: ["rivers"]).apply(to: bytes).data == nil)
        let withoutWater = try Self.filter(dropping: ["water"]).apply(to: bytes)
        #expect(withoutWater.layerNames == ["places", "roads", "water"])
        #expect(withoutWater.data == VectorTile(layers: Self.tile.layers).encoded())
        let withoutRoads = try Self.filter(dropping: ["roads"]).apply(to: bytes)
        #expect(withoutRoads.data == VectorTile(layers: [Self.tile.layers[0], third]).encoded())
        let withoutPlaces = try Self.filter(dropping: ["places"]).apply(to: bytes)
        #expect(withoutPlaces.data == VectorTile(layers: [Self.tile.layers[1], third]).encoded())
    }

    @Test("Layer names match byte for byte: a name in another Unicode normalization is another layer")
    func namesMatchByBytes() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed, "Swift's String equality is canonical")
        let tile = VectorTile(layers: [VectorTile.Layer(name: decomposed, features: [VectorTile.Feature(type: .point, geometry: [9, 2, 2])]),
                                       VectorTile.Layer(name: composed, features: [VectorTile.Feature(type: .point, geometry: [9, 4, 4])])])
        let dropping = try Self.filter(dropping: [composed], droppingFields: ["\(composed):\(composed)"])
        #expect(!dropping.keepsLayer(composed) && dropping.keepsLayer(decomposed))
        #expect(!dropping.keepsField(composed, inLayer: composed) && dropping.keepsField(decomposed, inLayer: composed))
        #expect(dropping.keepsField(composed, inLayer: decomposed))
        let filtered = try Self.filter(dropping: [composed]).apply(to: tile.encoded())
        #expect(filtered.data == VectorTile(layers: [tile.layers[0]]).encoded())
        #expect(filtered.layerNames.map { Array($0.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
        #expect(VectorTile.problems(in: tile.encoded()).isEmpty, "two layers, not one name twice")
        #expect(VectorTile.problems(in: VectorTile(layers: [tile.layers[1], tile.layers[1]]).encoded()).map(\.description)
            == ["layer 'caf\u{E9}': a second layer of this name (byte 25)"])
    }

    @Test("Many named layers (past the matcher's linear search, past 64 bits of the seen set) are found and noted alike")
    func manyNamedLayers() throws {
        let names = (0..<80).map { "layer\($0)" }
        let tile = VectorTile(layers: ["layer3", "layer70", "other", "layer17"].map {
            VectorTile.Layer(name: $0, features: [VectorTile.Feature(type: .point, geometry: [9, 2, 2])])
        })
        let filter = try Self.filter(dropping: Set(names))
        let matcher = VectorTile.LayerFilter.NameMatcher(filter)
        var seen = VectorTile.LayerFilter.NameMatcher.Seen()
        let filtered = try tile.encoded().withUnsafeBytes { try filter.apply(toBytes: $0, matcher: matcher, seen: &seen) }
        #expect(filtered == VectorTile(layers: [tile.layers[2]]).encoded())
        let found = matcher.names.indices.filter { seen.contains($0) }.map { String(decoding: matcher.names[$0], as: UTF8.self) }
        #expect(found == ["layer17", "layer3", "layer70"])
        #expect(seen.beyond.count == 1 && seen.bits.nonzeroBitCount == 2)
        "other".utf8.withContiguousStorageIfAvailable { #expect(matcher.index(of: UnsafeRawBufferPointer($0)) == nil) }
        let kept = try Self.filter(layers: Set(names)).apply(to: tile.encoded())
        #expect(kept.data == VectorTile(layers: [tile.layers[0], tile.layers[1], tile.layers[3]]).encoded())
    }

    @Test("A layer name that is not UTF-8 is an error naming the layer and byte; with two name fields the last one counts")
    func nameBytes() throws {
        var bad = Data([0x1A, 0x06, 0x0A, 0x02, 0xC3, 0x28, 0x78, 0x02])
        #expect(throws: VectorTile.DecodingError.self) { try Self.filter(dropping: ["x"]).apply(to: bad) }
        let filter = try Self.filter(dropping: ["x"])
        do throws(VectorTile.DecodingError) {
            _ = try filter.apply(to: bad)
        } catch {
            #expect(error.description == "layer 'layer 0': a string that is not UTF-8 (byte 4)")
        }
        bad = Data([0x1A, 0x0A, 0x0A, 0x01, 0x61, 0x0A, 0x01, 0x62, 0x78, 0x02, 0x28, 0x01])
        let renamed = try Self.filter(dropping: ["b"]).apply(to: bad)
        #expect(renamed.data == Data() && renamed.layerNames == ["b"])
        #expect(try Self.filter(dropping: ["a"]).apply(to: bad).data == nil)
    }

    @Test("A tile the filter cannot read is an error naming the defect")
    func unreadable() throws {
        #expect(throws: VectorTile.DecodingError.self) { try Self.filter(layers: ["a"]).apply(to: Data([0x1A, 0x05, 0x0A])) }
    }
}
