extension VectorTile {
    /// A vector tile that cannot be read, or breaks the specification: what is wrong, where
    /// (layer name or index, feature index) and at which byte of the uncompressed tile.
    public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, e.g. `a key index 7 past the 3 keys`.
        public let reason: String
        /// The layer's name, or `layer 2` (from 0) while its name is not known.
        public let layer: String?
        /// The feature's index in its layer, from 0.
        public let feature: Int?
        /// The byte of the uncompressed tile where it was found.
        public let offset: Int

        init(_ reason: String, layer: String? = nil, feature: Int? = nil, offset: Int) {
            self.reason = reason
            self.layer = layer
            self.feature = feature
            self.offset = offset
        }

        init(_ error: ProtobufError, layer: String? = nil, feature: Int? = nil) {
            self.init(error.reason, layer: layer, feature: feature, offset: error.offset)
        }

        /// The same defect placed in a layer (and feature).
        func within(layer: String?, feature: Int? = nil) -> DecodingError {
            DecodingError(reason, layer: self.layer ?? layer, feature: self.feature ?? feature, offset: offset)
        }

        public var description: String {
            var place: [String] = []
            if let layer { place.append("layer '\(layer)'") }
            if let feature { place.append("feature \(feature)") }
            return (place.isEmpty ? "" : place.joined(separator: ", ") + ": ") + "\(reason) (byte \(offset))"
        }
    }
}
