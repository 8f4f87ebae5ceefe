import Foundation
import TileSync

/// The TileJSON 3.0.0 document of a served store: tile URL, zooms, bounds, center, the
/// metadata's name, description, version and attribution, and `vector_layers` for vector tiles
/// (required by TileJSON 3.0.0 for them, so an empty list when the store declares none).
enum TileJSONDocument {
    /// The document's bytes, keys sorted.
    /// - Parameter base: the URL prefix of the tiles, without a trailing slash (`http://host:8080`).
    static func render(store: ServedStore, version: ServedStoreVersion, base: String) -> Data {
        let metadata = version.metadata
        let zooms = version.zooms, bounds = version.bounds, center = version.center
        var document: [String: Any] = [
            "tilejson": "3.0.0",
            "tiles": [base + "/" + store.name + "/{z}/{x}/{y}." + version.format.fileExtension],
            "name": metadata["name"] ?? store.name,
            "scheme": "xyz",
            "minzoom": zooms.lowerBound,
            "maxzoom": zooms.upperBound,
            "bounds": [bounds.west, bounds.south, bounds.east, bounds.north],
            "center": [center.longitude, center.latitude, Double(center.zoom)],
            "format": version.format.fileExtension,
        ]
        for key in ["description", "version", "attribution"] {
            if let value = metadata[key], !value.isEmpty { document[key] = value }
        }
        if version.format == .pbf { document["vector_layers"] = version.vectorLayers }
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        return (try? JSONSerialization.data(withJSONObject: document, options: options)) ?? Data("{}".utf8)
    }
}
