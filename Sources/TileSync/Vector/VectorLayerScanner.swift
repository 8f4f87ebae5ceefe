/// Finds a tile's layers without decoding their features: each layer's name and the byte
/// ranges of its record (key, length and message, to copy as it is) and of its message.
enum VectorLayerScanner {
    struct Slice {
        /// The layer's name; nil when the layer has none (a defect decoding reports).
        let name: String?
        /// Its position among the tile's layers, from 0.
        let index: Int
        /// The whole field: key, length and message.
        let record: Range<Int>
        /// The layer message.
        let message: Range<Int>
    }

    /// The layers of an uncompressed tile, in order. Fields of the tile other than layers are
    /// skipped.
    /// - Throws: `VectorTile.DecodingError` for a wire error or a layer field of another type.
    static func layers(in bytes: UnsafeRawBufferPointer) throws(VectorTile.DecodingError) -> [Slice] {
        var reader = ProtobufReader(bytes)
        var records: [(record: Range<Int>, message: Range<Int>)] = []
        do throws(ProtobufError) {
            while true {
                let start = reader.position
                guard let field = try reader.field() else { break }
                guard field.number == 3 else { try reader.skip(field.type); continue }
                guard field.type == .lengthDelimited else {
                    throw ProtobufError("a layer field of wire type \(field.type.rawValue)", at: start)
                }
                let message = try reader.lengthDelimited()
                records.append((start..<message.upperBound, message))
            }
        } catch {
            throw VectorTile.DecodingError(error, layer: "layer \(records.count)")
        }
        var slices: [Slice] = []
        slices.reserveCapacity(records.count)
        for (index, found) in records.enumerated() {
            let name = try name(in: bytes, message: found.message, index: index)
            slices.append(Slice(name: name, index: index, record: found.record, message: found.message))
        }
        return slices
    }

    /// The name field of a layer message, reading its fields but no feature.
    private static func name(in bytes: UnsafeRawBufferPointer, message: Range<Int>,
                             index: Int) throws(VectorTile.DecodingError) -> String? {
        var reader = ProtobufReader(bytes, range: message)
        do throws(ProtobufError) {
            var name: String?
            while let field = try reader.field() {
                if field.number == 1, field.type == .lengthDelimited {
                    name = try reader.string(try reader.lengthDelimited())
                } else {
                    try reader.skip(field.type)
                }
            }
            return name
        } catch {
            throw VectorTile.DecodingError(error, layer: "layer \(index)")
        }
    }
}
