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
}
