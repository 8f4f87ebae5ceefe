/// The per-layer figures of `TileStatistics`, gathered tile by tile.
struct LayerTally {
    private var counted: [TileStatistics.Layer] = []
    /// Positions by the name's bytes (`VectorTile.sameName`).
    private var index: [[UInt8]: Int] = [:]
    private var fields: [Set<String>] = []
    /// Per layer, the keys last added to its fields: tiles of one store repeat them, and
    /// comparing is cheaper than hashing each again.
    private var lastKeys: [[String]] = []
    /// The positions of the previous tile's layers, in its order: the next tile most likely
    /// holds the same layers in the same order.
    private var lastPositions: [Int] = []
    private(set) var undecoded = 0

    /// Adds one tile's layers; nil counts a tile that could not be read.
    mutating func add(_ tileLayers: [VectorLayerCensus.Layer]?) {
        guard let tileLayers else {
            undecoded += 1
            return
        }
        for (order, layer) in tileLayers.enumerated() {
            let position: Int
            if order < lastPositions.count, VectorTile.sameName(counted[lastPositions[order]].name, layer.name) {
                position = lastPositions[order]
            } else if let known = index[Array(layer.name.utf8)] {
                position = known
            } else {
                position = counted.count
                index[Array(layer.name.utf8)] = position
                counted.append(TileStatistics.Layer(name: layer.name))
                fields.append([])
                lastKeys.append([])
            }
            if order < lastPositions.count { lastPositions[order] = position } else { lastPositions.append(position) }
            counted[position].tiles += 1
            counted[position].features += layer.features
            counted[position].bytes += layer.bytes
            if fields[position].count < 10_000, layer.keys != lastKeys[position] {
                fields[position].formUnion(layer.keys)
                lastKeys[position] = layer.keys
            }
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
