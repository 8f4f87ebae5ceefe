/// The `json` metadata member of a merge (where MBTiles keep `vector_layers`, `tilestats`):
/// when several sources have one, their members by the duplicate policy's order, except
/// `vector_layers`, united by `id`: layers in the order they first appear, a layer several
/// sources describe with its fields united, `minzoom` the lowest and `maxzoom` the highest, and
/// other values (a field's description too) by the policy's order. Written in canonical JSON.
enum MergedJSONMetadata {
    /// The merged `json` text, or nil when fewer than two sources have one or one of them is not
    /// a JSON object (the policy's order then picks one source's text as for any key).
    static func merge(_ texts: [String?], policy: MergedStoreKind.DuplicatePolicy) -> String? {
        let given = texts.compactMap { $0 }
        let objects = given.compactMap { text -> JSONValue? in
            guard let value = try? JSONParser.parse(Array(text.utf8)), value.members != nil else { return nil }
            return value
        }
        guard objects.count >= 2, objects.count == given.count else { return nil }
        let laterWins = policy == .override
        var merged = JSONValue.object([])
        for object in objects {
            merged = merging(merged, object, laterWins: laterWins)
        }
        if let layers = unitedLayers(objects, laterWins: laterWins) { merged = merged.setting("vector_layers", to: .array(layers)) }
        return JSONWriter.text(merged, style: .canonical)
    }

    /// The members of both objects; a key both have takes the later's value when `laterWins`.
    private static func merging(_ earlier: JSONValue, _ later: JSONValue, laterWins: Bool) -> JSONValue {
        var result = earlier
        for member in later.members ?? [] where laterWins || result[member.key] == nil {
            result = result.setting(member.key, to: member.value)
        }
        return result
    }

    private static func unitedLayers(_ objects: [JSONValue], laterWins: Bool) -> [JSONValue]? {
        var layers: [JSONValue] = []
        var positions: [String: Int] = [:]
        var found = false
        for object in objects {
            guard let list = object["vector_layers"]?.array else { continue }
            found = true
            for layer in list {
                guard layer.members != nil, let id = layer["id"]?.string else {
                    layers.append(layer)
                    continue
                }
                guard let at = positions[id], layers[at].members != nil else {
                    positions[id] = layers.count
                    layers.append(layer)
                    continue
                }
                layers[at] = unite(layers[at], layer, laterWins: laterWins)
            }
        }
        return found ? layers : nil
    }

    private static func unite(_ earlier: JSONValue, _ later: JSONValue, laterWins: Bool) -> JSONValue {
        var layer = merging(earlier, later, laterWins: laterWins)
        if let fields = earlier["fields"], fields.members != nil, let more = later["fields"], more.members != nil {
            layer = layer.setting("fields", to: merging(fields, more, laterWins: laterWins))
        }
        if let low = earlier["minzoom"]?.int, let other = later["minzoom"]?.int { layer = layer.setting("minzoom", to: .int(min(low, other))) }
        if let high = earlier["maxzoom"]?.int, let other = later["maxzoom"]?.int { layer = layer.setting("maxzoom", to: .int(max(high, other))) }
        return layer
    }
}
