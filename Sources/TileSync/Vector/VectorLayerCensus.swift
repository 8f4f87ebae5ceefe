/// What a statistics pass needs of a tile's layers, without decoding features: per layer its
/// name, its features counted, its keys, and the bytes of its message.
enum VectorLayerCensus {
    struct Layer {
        let name: String
        let features: Int
        let keys: [String]
        let bytes: Int
    }

    /// The layers of an uncompressed tile.
    /// - Throws: `VectorTile.DecodingError` for a tile that cannot be read.
    static func layers(in bytes: UnsafeRawBufferPointer) throws(VectorTile.DecodingError) -> [Layer] {
        var layers: [Layer] = []
        for slice in try VectorLayerScanner.layers(in: bytes) {
            let label = slice.name ?? "layer \(slice.index)"
            var reader = ProtobufReader(bytes, range: slice.message)
            var features = 0, keys: [String] = []
            do throws(ProtobufError) {
                while let field = try reader.field() {
                    switch (field.number, field.type) {
                    case (2, .lengthDelimited):
                        _ = try reader.lengthDelimited()
                        features += 1
                    case (3, .lengthDelimited): keys.append(try reader.string(try reader.lengthDelimited()))
                    default: try reader.skip(field.type)
                    }
                }
            } catch {
                throw VectorTile.DecodingError(error, layer: label)
            }
            layers.append(Layer(name: label, features: features, keys: keys, bytes: slice.message.count))
        }
        return layers
    }
}
