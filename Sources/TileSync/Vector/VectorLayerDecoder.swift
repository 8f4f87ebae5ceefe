/// Decodes one layer message into a `VectorTile.Layer`, checking what decoding depends on:
/// the wire format, a name, tags in pairs that index existing keys and values, values of one
/// known type, known geometry types. Geometry commands are kept as they are (`VectorGeometry`
/// checks them).
enum VectorLayerDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer,
                       slice: VectorLayerScanner.Slice) throws(VectorTile.DecodingError) -> VectorTile.Layer {
        try decodeNotingVersion(bytes, slice: slice).layer
    }

    /// The layer, and whether it states its version (the specification requires it; without
    /// it the version is 1).
    static func decodeNotingVersion(_ bytes: UnsafeRawBufferPointer,
                                    slice: VectorLayerScanner.Slice) throws(VectorTile.DecodingError) -> (layer: VectorTile.Layer, hasVersion: Bool) {
        let label = slice.name ?? "layer \(slice.index)"
        guard let name = slice.name else {
            throw VectorTile.DecodingError("a layer without a name", layer: label, offset: slice.message.lowerBound)
        }
        var layer = VectorTile.Layer(name: name, version: 1)
        var reader = ProtobufReader(bytes, range: slice.message)
        var featureRanges: [Range<Int>] = [], valueRanges: [Range<Int>] = []
        var hasVersion = false
        do throws(ProtobufError) {
            while let field = try reader.field() {
                switch (field.number, field.type) {
                case (1, .lengthDelimited): _ = try reader.lengthDelimited()
                case (2, .lengthDelimited): featureRanges.append(try reader.lengthDelimited())
                case (3, .lengthDelimited): layer.keys.append(try reader.string(try reader.lengthDelimited()))
                case (4, .lengthDelimited): valueRanges.append(try reader.lengthDelimited())
                case (5, .varint): layer.extent = UInt32(truncatingIfNeeded: try reader.varint())
                case (15, .varint):
                    layer.version = UInt32(truncatingIfNeeded: try reader.varint())
                    hasVersion = true
                case (1...5, _), (15, _):
                    throw ProtobufError("field \(field.number) of the layer with wire type \(field.type.rawValue)", at: reader.position)
                default: try reader.skip(field.type)
                }
            }
        } catch {
            throw VectorTile.DecodingError(error, layer: name)
        }
        layer.values.reserveCapacity(valueRanges.count)
        for range in valueRanges { layer.values.append(try value(bytes, range: range, layer: name)) }
        layer.features.reserveCapacity(featureRanges.count)
        for (index, range) in featureRanges.enumerated() {
            do throws(VectorTile.DecodingError) {
                let feature = try Self.feature(bytes, range: range)
                try checkTags(feature.tags, keys: layer.keys.count, values: layer.values.count, offset: range.lowerBound)
                layer.features.append(feature)
            } catch {
                throw error.within(layer: name, feature: index)
            }
        }
        return (layer, hasVersion)
    }

    private static func feature(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(VectorTile.DecodingError) -> VectorTile.Feature {
        var reader = ProtobufReader(bytes, range: range)
        var feature = VectorTile.Feature(type: .unknown)
        do throws(ProtobufError) {
            while let field = try reader.field() {
                switch (field.number, field.type) {
                case (1, .varint): feature.id = try reader.varint()
                case (2, .lengthDelimited): append(try packed(&reader), to: &feature.tags)
                case (2, .varint): feature.tags.append(UInt32(truncatingIfNeeded: try reader.varint()))
                case (3, .varint):
                    let start = reader.position
                    let raw = try reader.varint()
                    guard raw <= 3, let type = VectorTile.GeometryType(rawValue: UInt32(raw)) else {
                        throw ProtobufError("an unknown geometry type \(raw)", at: start)
                    }
                    feature.type = type
                case (4, .lengthDelimited): append(try packed(&reader), to: &feature.geometry)
                case (4, .varint): feature.geometry.append(UInt32(truncatingIfNeeded: try reader.varint()))
                case (1...4, _):
                    throw ProtobufError("field \(field.number) of the feature with wire type \(field.type.rawValue)", at: reader.position)
                default: try reader.skip(field.type)
                }
            }
        } catch {
            throw VectorTile.DecodingError(error)
        }
        return feature
    }

    /// Adds a packed run to a repeated field: taken as it is when it is the first (the usual
    /// case, one run a field), without copying it into a new array.
    private static func append(_ run: [UInt32], to values: inout [UInt32]) {
        if values.isEmpty { values = run } else { values += run }
    }

    /// A packed repeated uint32 field; its payload holds at least one byte a value, so the
    /// array never outgrows the tile.
    private static func packed(_ reader: inout ProtobufReader) throws(ProtobufError) -> [UInt32] {
        let range = try reader.lengthDelimited()
        var inner = ProtobufReader(reader.bytes, range: range)
        var values: [UInt32] = []
        values.reserveCapacity(range.count / 2)
        while !inner.isAtEnd {
            let start = inner.position
            let value = try inner.varint()
            guard value <= UInt64(UInt32.max) else { throw ProtobufError("a value \(value) beyond 32 bits", at: start) }
            values.append(UInt32(value))
        }
        return values
    }

    private static func value(_ bytes: UnsafeRawBufferPointer, range: Range<Int>,
                              layer: String) throws(VectorTile.DecodingError) -> VectorTile.Value {
        var reader = ProtobufReader(bytes, range: range)
        var found: VectorTile.Value?
        var count = 0
        do throws(ProtobufError) {
            while let field = try reader.field() {
                let value: VectorTile.Value
                switch (field.number, field.type) {
                case (1, .lengthDelimited): value = .string(try reader.string(try reader.lengthDelimited()))
                case (2, .fixed32): value = .float(Float(bitPattern: try reader.fixed32()))
                case (3, .fixed64): value = .double(Double(bitPattern: try reader.fixed64()))
                case (4, .varint): value = .int(Int64(bitPattern: try reader.varint()))
                case (5, .varint): value = .uint(try reader.varint())
                case (6, .varint):
                    let raw = try reader.varint()
                    value = .sint(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
                case (7, .varint): value = .bool(try reader.varint() != 0)
                case (1...7, _):
                    throw ProtobufError("field \(field.number) of a value with wire type \(field.type.rawValue)", at: reader.position)
                default:
                    try reader.skip(field.type)
                    continue
                }
                if found == nil { found = value }
                count += 1
            }
        } catch {
            throw VectorTile.DecodingError(error, layer: layer)
        }
        guard count == 1, let found else {
            let reason = count == 0 ? "a value of no known type" : "a value with \(count) types"
            throw VectorTile.DecodingError(reason, layer: layer, offset: range.lowerBound)
        }
        return found
    }

    private static func checkTags(_ tags: [UInt32], keys: Int, values: Int, offset: Int) throws(VectorTile.DecodingError) {
        guard tags.count % 2 == 0 else { throw VectorTile.DecodingError("an odd number of tags (\(tags.count))", offset: offset) }
        for index in stride(from: 0, to: tags.count, by: 2) {
            guard Int(tags[index]) < keys else {
                throw VectorTile.DecodingError("a key index \(tags[index]) past the \(keys) keys", offset: offset)
            }
            guard Int(tags[index + 1]) < values else {
                throw VectorTile.DecodingError("a value index \(tags[index + 1]) past the \(values) values", offset: offset)
            }
        }
    }
}
