import Foundation

/// The `json` metadata member of a merge (where MBTiles keep `vector_layers`, `tilestats`):
/// when several sources have one, their members by the duplicate policy's order, except
/// `vector_layers`, united by `id`: layers in the order they first appear, a layer several
/// sources describe with its fields united, `minzoom` the lowest and `maxzoom` the highest, and
/// other values (a field's description too) by the policy's order.
enum MergedJSONMetadata {
    /// The merged `json` text, or nil when fewer than two sources have one or one of them is not
    /// a JSON object (the policy's order then picks one source's text as for any key).
    static func merge(_ texts: [String?], policy: DuplicatePolicy) -> String? {
        let given = texts.compactMap { $0 }
        let objects = given.compactMap { text in
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        }
        guard objects.count >= 2, objects.count == given.count else { return nil }
        let laterWins = policy == .override
        var merged: [String: Any] = [:]
        for object in objects {
            merged.merge(object) { old, new in laterWins ? new : old }
        }
        if let layers = unitedLayers(objects, laterWins: laterWins) { merged["vector_layers"] = layers }
        guard let data = try? JSONSerialization.data(withJSONObject: merged, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func unitedLayers(_ objects: [[String: Any]], laterWins: Bool) -> [Any]? {
        var layers: [Any] = []
        var positions: [String: Int] = [:]
        var found = false
        for object in objects {
            guard let list = object["vector_layers"] as? [Any] else { continue }
            found = true
            for item in list {
                guard let layer = item as? [String: Any], let id = layer["id"] as? String else {
                    layers.append(item)
                    continue
                }
                guard let at = positions[id], let earlier = layers[at] as? [String: Any] else {
                    positions[id] = layers.count
                    layers.append(layer)
                    continue
                }
                layers[at] = unite(earlier, layer, laterWins: laterWins)
            }
        }
        return found ? layers : nil
    }

    private static func unite(_ earlier: [String: Any], _ later: [String: Any], laterWins: Bool) -> [String: Any] {
        var layer = earlier.merging(later) { old, new in laterWins ? new : old }
        if let fields = earlier["fields"] as? [String: Any], let more = later["fields"] as? [String: Any] {
            layer["fields"] = fields.merging(more) { old, new in laterWins ? new : old }
        }
        let zooms = [earlier, later].map { ($0["minzoom"] as? NSNumber)?.intValue }
        if let low = zooms[0], let other = zooms[1] { layer["minzoom"] = min(low, other) }
        let highs = [earlier, later].map { ($0["maxzoom"] as? NSNumber)?.intValue }
        if let high = highs[0], let other = highs[1] { layer["maxzoom"] = max(high, other) }
        return layer
    }
}
