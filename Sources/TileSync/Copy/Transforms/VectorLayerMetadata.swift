/// The `vector_layers` and `tilestats` of a metadata `json` document pruned to what a layer
/// filter keeps: layers dropped, fields dropped from each layer's `fields`, tilestats' layers
/// and attributes dropped with `layerCount` and `attributeCount` set to what remains. Other
/// members are kept as they are.
enum VectorLayerMetadata {
    static func pruned(_ document: JSONValue, by filter: VectorTile.LayerFilter) -> JSONValue {
        var result = document
        if let layers = document["vector_layers"]?.array {
            result = result.setting("vector_layers", to: .array(layers.compactMap { layer in
                guard let id = layer["id"]?.string else { return layer }
                guard filter.keepsLayer(id) else { return nil }
                guard let fields = layer["fields"]?.members else { return layer }
                return layer.setting("fields", to: .object(fields.filter { filter.keepsField($0.key, inLayer: id) }))
            }))
        }
        if let stats = document["tilestats"], let layers = stats["layers"]?.array {
            let kept: [JSONValue] = layers.compactMap { layer in
                guard let name = layer["layer"]?.string else { return layer }
                guard filter.keepsLayer(name) else { return nil }
                guard let attributes = layer["attributes"]?.array else { return layer }
                let remaining = attributes.filter { attribute in
                    attribute["attribute"]?.string.map { filter.keepsField($0, inLayer: name) } ?? true
                }
                return layer.setting("attributes", to: .array(remaining))
                    .setting("attributeCount", to: layer["attributeCount"] == nil ? nil : .int(remaining.count))
            }
            result = result.setting("tilestats", to: stats.setting("layers", to: .array(kept))
                .setting("layerCount", to: stats["layerCount"] == nil ? nil : .int(kept.count)))
        }
        return result
    }
}
