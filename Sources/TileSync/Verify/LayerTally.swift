/// The per-layer figures of `TileStatistics`, gathered tile by tile.
struct LayerTally {
    private var counted: [TileStatistics.Layer] = []
    private var index: [String: Int] = [:]
    private var fields: [Set<String>] = []
    private(set) var undecoded = 0

    /// Adds one tile's layers; nil counts a tile that could not be read.
    mutating func add(_ tileLayers: [VectorLayerCensus.Layer]?) {
        guard let tileLayers else {
            undecoded += 1
            return
        }
        for layer in tileLayers {
            let position: Int
            if let known = index[layer.name] {
                position = known
            } else {
                position = counted.count
                index[layer.name] = position
                counted.append(TileStatistics.Layer(name: layer.name))
                fields.append([])
            }
            counted[position].tiles += 1
            counted[position].features += layer.features
            counted[position].bytes += layer.bytes
            if fields[position].count < 10_000 { fields[position].formUnion(layer.keys) }
        }
    }

    /// The layers in the order first met, each with its fields sorted.
    var layers: [TileStatistics.Layer] {
        zip(counted, fields).map { layer, names in
            var layer = layer
            layer.fields = names.sorted()
            return layer
        }
    }
}
