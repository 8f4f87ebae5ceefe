/// Encodes a `VectorTile.Layer` as a layer message: name, features, keys, values, extent,
/// version (field-number order); a feature's id only when it has one.
enum VectorLayerEncoder {
    static func encode(_ layer: VectorTile.Layer) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.stringField(1, layer.name)
        for feature in layer.features {
            var inner = ProtobufWriter()
            if let id = feature.id { inner.varintField(1, id) }
            inner.packedField(2, feature.tags)
            inner.varintField(3, UInt64(feature.type.rawValue))
            inner.packedField(4, feature.geometry)
            writer.bytesField(2, inner.bytes)
        }
        for key in layer.keys { writer.stringField(3, key) }
        for value in layer.values {
            var inner = ProtobufWriter()
            switch value {
            case .string(let text): inner.stringField(1, text)
            case .float(let number): inner.fixed32Field(2, number.bitPattern)
            case .double(let number): inner.fixed64Field(3, number.bitPattern)
            case .int(let number): inner.varintField(4, UInt64(bitPattern: number))
            case .uint(let number): inner.varintField(5, number)
            case .sint(let number): inner.varintField(6, UInt64(bitPattern: (number << 1) ^ (number >> 63)))
            case .bool(let flag): inner.varintField(7, flag ? 1 : 0)
            }
            writer.bytesField(4, inner.bytes)
        }
        writer.varintField(5, UInt64(layer.extent))
        writer.varintField(15, UInt64(layer.version))
        return writer.bytes
    }
}
