import Foundation
import TileSync

/// The TileJSON 3.0.0 document of a served store: tile URL, zooms, bounds, center, the
/// metadata's name, description, version and attribution, and `vector_layers` for vector tiles
/// (required by TileJSON 3.0.0 for them, so an empty list when the store declares none);
/// MapLibre Tiles also get MapLibre's `"encoding": "mlt"`.
enum TileJSONDocument {
    /// The document's bytes, keys sorted.
    /// - Parameter base: the URL prefix of the tiles, without a trailing slash (`http://host:8080`).
    static func render(store: ServedStore, version: ServedStoreVersion, base: String) -> Data {
        let metadata = version.metadata
        let zooms = version.zooms, bounds = version.bounds, center = version.center
        var document: [(key: String, value: JSONValue)] = [
            ("tilejson", .string("3.0.0")),
            ("tiles", .array([.string(base + "/" + store.name + "/{z}/{x}/{y}." + version.format.fileExtension)])),
            ("name", .string(metadata["name"] ?? store.name)),
            ("scheme", .string("xyz")),
            ("minzoom", .int(zooms.lowerBound)),
            ("maxzoom", .int(zooms.upperBound)),
            ("bounds", .array([bounds.west, bounds.south, bounds.east, bounds.north].map(JSONValue.double))),
            ("center", .array([center.longitude, center.latitude, Double(center.zoom)].map(JSONValue.double))),
            ("format", .string(version.format.fileExtension)),
        ]
        for key in ["description", "version", "attribution"] {
            if let value = metadata[key], !value.isEmpty { document.append((key, .string(value))) }
        }
        if [.pbf, .mlt].contains(version.format) { document.append(("vector_layers", .array(version.vectorLayers))) }
        // MapLibre (GL JS from 5.12, Native) reads a vector source's `encoding` to pick its decoder.
        if version.format == .mlt { document.append(("encoding", .string("mlt"))) }
        return Data(JSONWriter.bytes(.object(document), style: .canonical))
    }
}
