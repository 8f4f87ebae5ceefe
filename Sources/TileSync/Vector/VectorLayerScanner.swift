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

    /// A layer found with its name's bytes, not yet made a `String`.
    struct Record {
        /// The whole field: key, length and message.
        let record: Range<Int>
        /// The layer message.
        let message: Range<Int>
        /// The bytes of the layer's name (the last name field, as protocol buffers read a
        /// repeated singular field), nil when it has none. Checked to be UTF-8.
        let name: Range<Int>?
    }

    /// The layers of an uncompressed tile, in order. Fields of the tile other than layers are
    /// skipped.
    /// - Throws: `VectorTile.DecodingError` for a wire error, a layer field of another type or
    ///   a name that is not UTF-8.
    static func layers(in bytes: UnsafeRawBufferPointer) throws(VectorTile.DecodingError) -> [Slice] {
        var slices: [Slice] = []
        try forEachLayer(in: bytes) { (index, found) throws(VectorTile.DecodingError) in
            var name: String?
            if let range = found.name {
                name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            slices.append(Slice(name: name, index: index, record: found.record, message: found.message))
        }
        return slices
    }

    /// Calls `body` with each layer of an uncompressed tile in order (its index from 0), the
    /// name's bytes found and checked to be UTF-8 but no `String` made.
    /// - Throws: what `layers(in:)` throws, and what `body` throws.
    static func forEachLayer(in bytes: UnsafeRawBufferPointer,
                             _ body: (Int, Record) throws(VectorTile.DecodingError) -> Void) throws(VectorTile.DecodingError) {
        var reader = ProtobufReader(bytes)
        var index = 0
        while true {
            let start = reader.position
            let message: Range<Int>
            do throws(ProtobufError) {
                guard let field = try reader.field() else { return }
                guard field.number == 3 else { try reader.skip(field.type); continue }
                guard field.type == .lengthDelimited else {
                    throw ProtobufError("a layer field of wire type \(field.type.rawValue)", at: start)
                }
                message = try reader.lengthDelimited()
            } catch {
                throw VectorTile.DecodingError(error, layer: "layer \(index)")
            }
            try body(index, Record(record: start..<message.upperBound, message: message,
                                   name: try nameRange(in: bytes, message: message, index: index)))
            index += 1
        }
    }

    /// True when an uncompressed tile's top level reads: its fields, its layers and their names
    /// (no feature is decoded).
    static func readsAsTile(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do throws(VectorTile.DecodingError) {
            try forEachLayer(in: bytes) { _, _ in }
            return true
        } catch {
            return false
        }
    }

    /// The name field of a layer message, reading its fields but no feature.
    private static func nameRange(in bytes: UnsafeRawBufferPointer, message: Range<Int>,
                                  index: Int) throws(VectorTile.DecodingError) -> Range<Int>? {
        var reader = ProtobufReader(bytes, range: message)
        do throws(ProtobufError) {
            var name: Range<Int>?
            while let field = try reader.field() {
                if field.number == 1, field.type == .lengthDelimited {
                    name = try reader.lengthDelimited()
                } else {
                    try reader.skip(field.type)
                }
            }
            if let name { try reader.checkUTF8(name) }
            return name
        } catch {
            throw VectorTile.DecodingError(error, layer: "layer \(index)")
        }
    }
}
