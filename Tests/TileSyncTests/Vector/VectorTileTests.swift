import Foundation
import Testing
@testable import TileSync

@Suite("Vector tiles: the MVT 2.1 codec decodes, encodes and names what is wrong")
struct VectorTileTests {
    /// The python encoder's bytes of one square polygon with five attributes of five types.
    static let pythonSquare = "1a590a0177121b120a000001010202030304041803220b0900001a1400001413000f1a01611a01621a01631a01641a01652202200122030a0178220919000000000000f83f22023801220b20fdffffffffffffffff012880207802"

    static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return data
    }

    static let sample = VectorTile(layers: [
        VectorTile.Layer(name: "places", extent: 4096, keys: ["name", "rank", "area", "ratio", "capital", "delta"],
                         values: [.string("Oslo"), .uint(3), .double(454.03), .float(0.25), .bool(true), .sint(-12), .int(-7)],
                         features: [VectorTile.Feature(id: 7, type: .point, tags: [0, 0, 1, 1, 4, 4], geometry: [9, 50, 34]),
                                    VectorTile.Feature(type: .lineString, tags: [5, 5, 3, 3], geometry: [9, 4, 4, 18, 0, 16, 16, 0]),
                                    VectorTile.Feature(id: 0, type: .polygon, tags: [2, 2, 5, 6],
                                                       geometry: [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15])]),
        VectorTile.Layer(name: "empty", version: 1, extent: 512),
    ])

    @Test("A tile the python encoder wrote decodes to its layer, attributes of each type and ring")
    func decodesPythonBytes() throws {
        let tile = try VectorTile(decoding: Self.bytes(Self.pythonSquare))
        let layer = try #require(tile.layers.first)
        #expect(tile.layers.count == 1 && layer.name == "w" && layer.version == 2 && layer.extent == 4096)
        let properties = layer.properties(of: layer.features[0]).map { "\($0.key)=\($0.value)" }
        #expect(properties == ["a=1", "b=x", "c=1.5", "d=true", "e=-3"])
        #expect(layer.values == [.int(1), .string("x"), .double(1.5), .bool(true), .int(-3)])
        let rings = try layer.features[0].rings()
        #expect(rings.map { $0.map { "\($0.x),\($0.y)" } } == [["0,0", "10,0", "10,10", "0,10"]])
        #expect(VectorTile.problems(in: Self.bytes(Self.pythonSquare)) == [])
    }

    @Test("Encoding and decoding give the same tile, and decoding what was encoded is stable byte for byte")
    func roundTrip() throws {
        let encoded = Self.sample.encoded()
        let decoded = try VectorTile(decoding: encoded)
        #expect(decoded == Self.sample)
        #expect(decoded.encoded() == encoded)
        #expect(try decoded.layers[0].features[1].rings().map { $0.map { "\($0.x),\($0.y)" } } == [["2,2", "2,10", "10,10"]])
        #expect(VectorTile.problems(in: encoded) == [])
    }

    @Test("Fields the specification does not define are skipped; a missing version reads as 1 and is a problem")
    func unknownFields() throws {
        var writer = ProtobufWriter()
        writer.varintField(9, 99)
        var layer = ProtobufWriter()
        layer.stringField(1, "a")
        layer.fixed64Field(20, 1)
        writer.bytesField(3, layer.bytes)
        let data = Data(writer.bytes)
        let tile = try VectorTile(decoding: data)
        #expect(tile.layers == [VectorTile.Layer(name: "a", version: 1)])
        #expect(VectorTile.problems(in: data).map(\.description) == ["layer 'a': a layer without a version (byte 4)"])
    }

    static func layer(_ build: (inout ProtobufWriter) -> Void) -> Data {
        var layer = ProtobufWriter()
        build(&layer)
        var tile = ProtobufWriter()
        tile.bytesField(3, layer.bytes)
        return Data(tile.bytes)
    }

    static func feature(tags: [UInt32] = [], type: UInt64 = 1, geometry: [UInt32] = [9, 2, 2]) -> [UInt8] {
        var feature = ProtobufWriter()
        feature.packedField(2, tags)
        feature.varintField(3, type)
        feature.packedField(4, geometry)
        return feature.bytes
    }

    @Test("Wire and structure defects are errors naming the layer, the feature, the defect and the byte")
    func decodingErrors() {
        let cases: [(Data, String)] = [
            (Data([0x1A, 0x05, 0x0A]), "layer 'layer 0': a length of 5 bytes past the end (1 left) (byte 1)"),
            (Data([0x1A, 0x02, 0x28, 0x80]), "layer 'layer 0': a truncated varint (byte 4)"),
            (Data([0x1B]), "layer 'layer 0': an unknown wire type 3 of field 3 (byte 0)"),
            (Self.layer { $0.varintField(15, 2) }, "layer 'layer 0': a layer without a name (byte 2)"),
            (Self.layer { $0.stringField(1, "roads"); $0.stringField(3, "k"); $0.bytesField(2, Self.feature(tags: [0, 4])) },
             "layer 'roads', feature 0: a value index 4 past the 0 values (byte 14)"),
            (Self.layer { $0.stringField(1, "roads"); $0.bytesField(2, Self.feature(tags: [3])) },
             "layer 'roads', feature 0: an odd number of tags (1) (byte 11)"),
            (Self.layer { $0.stringField(1, "roads"); $0.bytesField(4, []) }, "layer 'roads': a value of no known type (byte 11)"),
            (Self.layer { $0.stringField(1, "roads"); $0.bytesField(4, [0x28, 0x01, 0x38, 0x01, 0x28, 0x02]) },
             "layer 'roads': a value with 3 types (byte 11)"),
            (Self.layer { $0.stringField(1, "roads"); $0.bytesField(4, [0x48, 0x01]) }, "layer 'roads': a value of no known type (byte 11)"),
            (Self.layer { $0.stringField(1, "roads"); $0.bytesField(2, Self.feature(type: 9)) },
             "layer 'roads', feature 0: an unknown geometry type 9 (byte 12)"),
            (Self.layer { $0.bytesField(1, [0xFF, 0xFE]) }, "layer 'layer 0': a string that is not UTF-8 (byte 4)"),
            (Self.layer { $0.stringField(1, "roads"); $0.bytesField(3, [0x6B, 0xC3, 0x28]) }, "layer 'roads': a string that is not UTF-8 (byte 11)"),
            (Self.layer { $0.stringField(1, "roads"); $0.bytesField(3, [0xED, 0xA0, 0x80]) }, "layer 'roads': a string that is not UTF-8 (byte 11)"),
        ]
        for (data, message) in cases {
            #expect(throws: VectorTile.DecodingError.self) { try VectorTile(decoding: data) }
            #expect(VectorTile.problems(in: data).map(\.description) == [message])
        }
    }

    @Test("A value with an unknown field beside its one type, and tags and geometry split over several packed runs, decode as one")
    func splitFields() throws {
        var feature = ProtobufWriter()
        feature.bytesField(2, [0x00, 0x00])
        feature.bytesField(2, [0x01, 0x01])
        feature.varintField(3, 2)
        feature.bytesField(4, [0x09, 0x02, 0x02])
        feature.bytesField(4, [0x0A, 0x04, 0x04])
        let data = Self.layer {
            $0.stringField(1, "roads")
            $0.stringField(3, "class")
            $0.stringField(3, "ref")
            $0.bytesField(4, [0x48, 0x07, 0x0A, 0x01, 0x61])
            $0.bytesField(4, [0x28, 0x05])
            $0.bytesField(2, feature.bytes)
        }
        let layer = try #require(try VectorTile(decoding: data).layers.first)
        #expect(layer.values == [.string("a"), .uint(5)])
        #expect(layer.features.map(\.tags) == [[0, 0, 1, 1]])
        #expect(layer.features.map(\.geometry) == [[9, 2, 2, 10, 4, 4]])
        #expect(VectorTile.problems(in: data).map(\.description) == ["layer 'roads': a layer without a version (byte 2)"])
    }

    @Test("Names and keys in UTF-8 beyond ASCII decode to the same text and encode back to the same bytes")
    func unicodeStrings() throws {
        let tile = VectorTile(layers: [VectorTile.Layer(name: "東京 caf\u{E9}", keys: ["name:\u{FC}", "\u{1F5FA}", "plain"], values: [.string("x")],
                                                        features: [VectorTile.Feature(type: .point, tags: [0, 0, 1, 0, 2, 0], geometry: [9, 2, 2])])])
        let decoded = try VectorTile(decoding: tile.encoded())
        #expect(decoded == tile)
        #expect(decoded.layers[0].keys.map { Array($0.utf8) } == [[0x6E, 0x61, 0x6D, 0x65, 0x3A, 0xC3, 0xBC], [0xF0, 0x9F, 0x97, 0xBA], Array("plain".utf8)])
        #expect(decoded.encoded() == tile.encoded())
    }

    @Test("Geometry that does not fit its type is named with the command; counts past the data fail at once")
    func geometryProblems() {
        let cases: [(UInt64, [UInt32], String)] = [
            (1, [9, 2, 2, 9, 4, 4], "a second MoveTo in a point geometry (command 3)"),
            (1, [10, 2, 2], "a LineTo before any MoveTo (command 0)"),
            (2, [9, 2, 2], "a line of one point (command 3)"),
            (2, [17, 2, 2, 4, 4], "a MoveTo of 2 points in a line geometry (command 0)"),
            (3, [9, 0, 0, 26, 20, 0, 0, 20, 39, 0], "a ring that is not closed (command 10)"),
            (3, [9, 0, 0, 10, 20, 0, 15], "a ring's LineTo of 1 point (command 3)"),
            (3, [9, 0, 0, 26, 20, 0, 0, 20, 39, 0, 23], "a ClosePath with a count of 2 (command 10)"),
            (2, [9, 0, 0, UInt32.max << 3 | 2, 1, 1], "a LineTo of 536870911 points past the end of the geometry (command 3)"),
            (1, [9, 0, 0, 5], "an unknown command 5 (command 3)"),
            (3, [9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15], "a polygon whose first ring is not exterior (its area is not positive) (command 0)"),
        ]
        for (type, geometry, message) in cases {
            let data = Self.layer { layer in
                layer.stringField(1, "shapes")
                layer.bytesField(2, Self.feature(type: type, geometry: geometry))
                layer.varintField(15, 2)
            }
            #expect(VectorTile.problems(in: data).map(\.description) == ["layer 'shapes', feature 0: geometry: \(message) (byte 2)"])
        }
    }

    @Test("Layer problems: two layers of one name, an unknown version, an extent of 0, all reported")
    func layerProblems() {
        var writer = ProtobufWriter()
        for (name, version, extent) in [("a", 2, 4096), ("a", 3, 0)] as [(String, UInt64, UInt64)] {
            var layer = ProtobufWriter()
            layer.stringField(1, name)
            layer.varintField(5, extent)
            layer.varintField(15, version)
            writer.bytesField(3, layer.bytes)
        }
        #expect(VectorTile.problems(in: Data(writer.bytes)).map(\.description) == [
            "layer 'a': an unknown version 3 (byte 12)", "layer 'a': an extent of 0 (byte 12)",
            "layer 'a': a second layer of this name (byte 12)",
        ])
    }

    @Test("Hostile sizes: a layer of 2^20 keys and a million features decode in bounded time")
    func hostileSizes() throws {
        var layer = ProtobufWriter()
        layer.stringField(1, "many")
        for index in 0..<(1 << 20) { layer.stringField(3, String(index)) }
        let point = Self.feature()
        for _ in 0..<1_000_000 { layer.bytesField(2, point) }
        layer.varintField(15, 2)
        var tile = ProtobufWriter()
        tile.bytesField(3, layer.bytes)
        let decoded = try VectorTile(decoding: Data(tile.bytes))
        #expect(decoded.layers[0].keys.count == 1 << 20 && decoded.layers[0].features.count == 1_000_000)
    }
}
