import Foundation

/// Metadata between TileSync's text keys (MBTiles rows) and a PMTiles archive, as go-pmtiles
/// maps it: `bounds` and `center` live in the header; the keys of the MBTiles `json` object
/// (`vector_layers`, `tilestats`, ...) are top-level JSON members; every other key is a JSON
/// string member, `format`, `minzoom` and `maxzoom` included. Reading does the reverse, and
/// fills `minzoom`, `maxzoom`, `bounds`, `center` and `format` from the header where the JSON
/// lacks them.
enum PMTilesMetadataMapping {
    /// The JSON metadata object for `metadata`, and the bounds and centre that go to the header
    /// (nil when absent or unparseable: the text then stays in the JSON).
    static func encode(_ metadata: TileMetadata) -> (json: [UInt8], bounds: BoundingBox?, center: (longitude: Double, latitude: Double, zoom: Int)?) {
        var members: [String] = []
        var bounds: BoundingBox?
        var center: (Double, Double, Int)?
        for entry in metadata {
            switch entry.key {
            case "bounds" where metadata.bounds != nil:
                bounds = metadata.bounds
                continue
            case "center":
                if let parsed = entry.value.flatMap(parseCenter) {
                    center = parsed
                    continue
                }
            case "json":
                // Lifted only when every member comes back into `json` on reading: an object or
                // array whose key no other entry has. Otherwise the text stays, exactly.
                if let value = entry.value, let lifted = try? MetadataJSON.members(Array(value.utf8)),
                   lifted.allSatisfy({ $0.isComposite && !metadata.contains($0.key) }),
                   Set(lifted.map(\.key)).count == lifted.count {
                    members += lifted.map { MetadataJSON.quoted($0.key) + ":" + $0.json }
                    continue
                }
            default:
                break
            }
            members.append(MetadataJSON.quoted(entry.key) + ":" + (entry.value.map(MetadataJSON.quoted) ?? "null"))
        }
        return (Array(("{" + members.joined(separator: ",") + "}").utf8), bounds, center)
    }

    /// TileSync metadata from an archive's JSON metadata and header.
    /// - Throws: `TileStoreError` `.invalidMetadata` when the JSON is not an object.
    static func decode(_ json: [UInt8], header: PMTilesHeader, store: String) throws(TileStoreError) -> TileMetadata {
        let members: [MetadataJSON.Member]
        do {
            members = json.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) ? [] : try MetadataJSON.members(json)
        } catch {
            throw TileStoreError(.invalidMetadata, store: store, item: "metadata", message: "is not a JSON object: \(error)")
        }
        var metadata = TileMetadata()
        var composite: [String] = []
        let hasJSONText = members.contains { $0.key == "json" && !$0.isComposite }
        for member in members {
            if member.isComposite && !hasJSONText {
                composite.append(MetadataJSON.quoted(member.key) + ":" + member.json)
            } else if let text = member.text {
                metadata[member.key] = text
            } else {
                metadata.setNull(member.key)
            }
        }
        if !composite.isEmpty { metadata["json"] = "{" + composite.joined(separator: ",") + "}" }
        if !metadata.contains("minzoom") { metadata["minzoom"] = String(header.minZoom) }
        if !metadata.contains("maxzoom") { metadata["maxzoom"] = String(header.maxZoom) }
        if !metadata.contains("bounds"), header.minLongitudeE7 != 0 || header.maxLongitudeE7 != 0 || header.minLatitudeE7 != 0 || header.maxLatitudeE7 != 0 {
            metadata["bounds"] = [header.minLongitudeE7, header.minLatitudeE7, header.maxLongitudeE7, header.maxLatitudeE7]
                .map(degrees).joined(separator: ",")
        }
        if !metadata.contains("center"), header.centerLongitudeE7 != 0 || header.centerLatitudeE7 != 0 || header.centerZoom != 0 {
            metadata["center"] = "\(degrees(header.centerLongitudeE7)),\(degrees(header.centerLatitudeE7)),\(header.centerZoom)"
        }
        if !metadata.contains("format"), let name = header.tileType?.formatName { metadata["format"] = name }
        return metadata
    }

    /// Degrees × 10^7, rounded, clamped to the 32-bit range.
    static func e7(_ degrees: Double) -> Int32 {
        Int32(max(Double(Int32.min), min(Double(Int32.max), (degrees * 10_000_000).rounded())))
    }

    /// A header coordinate as decimal degrees, without trailing zeros.
    static func degrees(_ e7: Int32) -> String {
        let negative = e7 < 0
        let magnitude = Int64(e7).magnitude
        var text = "\(magnitude / 10_000_000)"
        var fraction = String(magnitude % 10_000_000)
        fraction = String(repeating: "0", count: 7 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if !fraction.isEmpty { text += "." + fraction }
        return negative && magnitude != 0 ? "-" + text : text
    }

    /// `lon,lat,zoom` (the MBTiles `center`), nil when it is not three numbers in range.
    static func parseCenter(_ text: String) -> (Double, Double, Int)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3, let longitude = Double(parts[0]), let latitude = Double(parts[1]),
              (-180...180).contains(longitude), (-90...90).contains(latitude),
              let zoom = Double(parts[2]), zoom.rounded() == zoom, (0...Double(TileID.maxZoom)).contains(zoom)
        else { return nil }
        return (longitude, latitude, Int(zoom))
    }
}
