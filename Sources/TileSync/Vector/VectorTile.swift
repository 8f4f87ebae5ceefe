public import Foundation

/// A Mapbox Vector Tile (specification 2.1): its layers, decoded from and encoded to the
/// protocol buffers bytes of an uncompressed tile. Geometry stays in its command encoding
/// (`Feature.geometry`); `Feature.rings()` decodes it.
public struct VectorTile: Sendable, Equatable {
    /// The layers in the order the tile holds them.
    public var layers: [Layer]

    public init(layers: [Layer]) {
        self.layers = layers
    }

    /// Decodes every layer of an uncompressed tile, skipping fields the specification does not
    /// define. Checks the wire format, names, key and value indexes and value types; see
    /// `VectorTile.problems(in:)` for the checks of a deep verification.
    /// - Throws: `VectorTile.DecodingError` naming the layer, the feature and the byte.
    public init(decoding data: Data) throws(DecodingError) {
        let decoded: Result<[Layer], DecodingError> = data.withUnsafeBytes { bytes in
            do throws(DecodingError) {
                var layers: [Layer] = []
                for slice in try VectorLayerScanner.layers(in: bytes) {
                    layers.append(try VectorLayerDecoder.decode(bytes, slice: slice))
                }
                return .success(layers)
            } catch {
                return .failure(error)
            }
        }
        layers = try decoded.get()
    }

    /// The protocol buffers bytes of the tile (uncompressed): layer fields in field-number order.
    public func encoded() -> Data {
        var writer = ProtobufWriter()
        for layer in layers { writer.bytesField(3, VectorLayerEncoder.encode(layer)) }
        return Data(writer.bytes)
    }
}

extension VectorTile {
    /// Layer and attribute names are equal when their UTF-8 bytes are (not Swift's canonical
    /// equivalence of strings), as MapLibre and tile-join compare them.
    static func sameName(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { left in b.withUTF8 { right in left.elementsEqual(right) } }
    }
}
