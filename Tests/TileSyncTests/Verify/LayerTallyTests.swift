import Testing
@testable import TileSync

@Suite("The per-layer tally of info --stats")
struct LayerTallyTests {
    static func layer(_ name: String, _ features: Int, _ keys: [String], bytes: Int = 10) -> VectorLayerCensus.Layer {
        VectorLayerCensus.Layer(name: name, features: features, keys: keys, bytes: bytes)
    }

    @Test("Layers in changing orders, appearing late and missing from tiles, keys repeated and changed: each counted under its own name")
    func orders() {
        var tally = LayerTally()
        tally.add([Self.layer("water", 2, ["kind"]), Self.layer("roads", 3, ["class", "name"])])
        tally.add([Self.layer("water", 1, ["kind"]), Self.layer("roads", 1, ["class", "name"])])
        tally.add([Self.layer("roads", 4, ["ref"]), Self.layer("water", 5, ["kind"], bytes: 7)])
        tally.add(nil)
        tally.add([Self.layer("places", 1, ["name"]), Self.layer("roads", 2, ["class", "name"])])
        tally.add([Self.layer("roads", 1, ["class", "name"])])
        tally.add([Self.layer("water", 1, ["depth"]), Self.layer("places", 1, ["rank"])])
        tally.add([])
        let layers = tally.layers
        #expect(layers.map(\.name) == ["water", "roads", "places"])
        #expect(layers.map(\.tiles) == [4, 5, 2])
        #expect(layers.map(\.features) == [9, 11, 2])
        #expect(layers.map(\.bytes) == [37, 50, 20])
        #expect(layers.map(\.fields) == [["depth", "kind"], ["class", "name", "ref"], ["name", "rank"]])
        #expect(tally.undecoded == 1)
    }

    @Test("Layer names are told apart by their bytes, as the layer filter and verify --deep tell them")
    func namesByBytes() {
        var tally = LayerTally()
        tally.add([Self.layer("caf\u{E9}", 1, []), Self.layer("cafe\u{301}", 2, [])])
        tally.add([Self.layer("cafe\u{301}", 3, []), Self.layer("caf\u{E9}", 4, [])])
        #expect(tally.layers.map { Array($0.name.utf8) } == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
        #expect(tally.layers.map(\.features) == [5, 5])
    }
}
