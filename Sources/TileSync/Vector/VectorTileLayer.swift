extension VectorTile {
    /// One layer: its name, version, extent, the keys and values its features' tags index, and
    /// the features.
    public struct Layer: Sendable, Equatable {
        public var name: String
        /// The major version of the specification the layer follows (1 or 2).
        public var version: UInt32
        /// The width and height of the tile in the layer's integer coordinates (4096 by default).
        public var extent: UInt32
        public var keys: [String]
        public var values: [Value]
        public var features: [Feature]

        public init(name: String, version: UInt32 = 2, extent: UInt32 = 4096, keys: [String] = [], values: [Value] = [],
                    features: [Feature] = []) {
            self.name = name
            self.version = version
            self.extent = extent
            self.keys = keys
            self.values = values
            self.features = features
        }

        /// A feature's attributes as (key, value) pairs in tag order; pairs whose indexes are
        /// out of range are left out (decoding refuses them).
        public func properties(of feature: Feature) -> [(key: String, value: Value)] {
            stride(from: 0, to: feature.tags.count - 1, by: 2).compactMap { index in
                let key = Int(feature.tags[index]), value = Int(feature.tags[index + 1])
                guard key < keys.count, value < values.count else { return nil }
                return (keys[key], values[value])
            }
        }
    }
}
