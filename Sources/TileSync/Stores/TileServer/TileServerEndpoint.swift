import Foundation

/// Where a tile server's tiles are and what it says of them: the URL templates and metadata,
/// from the location itself (a template) or from the TileJSON document it names (`tiles`,
/// `scheme`, `minzoom`, `maxzoom`, `bounds` and the other fields, which become the metadata).
struct TileServerEndpoint: Sendable {
    /// The templates; a tile uses `templates[(x + y) % count]`, as TileJSON clients spread load.
    let templates: [TileURLTemplate]
    let metadata: TileMetadata
    /// The zooms a TileJSON document declares.
    let zooms: ClosedRange<Int>?
    /// The area a TileJSON document declares.
    let bounds: BoundingBox?

    /// A location holding `{z}` or `{q}` is a template; any other is a TileJSON document's URL.
    static func isTemplate(_ address: String) -> Bool { address.contains("{z}") || address.contains("{q}") }

    /// - Throws: `TileStoreError`: `.invalidOptions` for a template without a tile, `.io` when
    ///   the TileJSON document cannot be fetched, `.notATileStore` when it is not TileJSON.
    static func resolve(_ location: TileStoreLocation, options: TileServerOptions, client: TileServerClient) throws(TileStoreError) -> TileServerEndpoint {
        let address = location.address
        if isTemplate(address) {
            let template = try TileURLTemplate(address, subdomains: options.subdomains, store: address)
            var metadata = TileMetadata()
            metadata["name"] = URL(string: address.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D"))?.host ?? "tiles"
            if let format = template.declaredFormat { metadata["format"] = format.rawValue }
            return TileServerEndpoint(templates: [template], metadata: metadata, zooms: nil, bounds: nil)
        }
        guard let url = URL(string: address) else {
            throw TileStoreError(.invalidOptions, store: address, message: "is not a URL")
        }
        let data: Data
        do {
            data = try client.document(url)
        } catch {
            throw TileStoreError(.io, store: address, item: "TileJSON document", message: error.description, hint: error.hint)
        }
        return try tileJSON(data, location: location, options: options)
    }

    static func tileJSON(_ data: Data, location: TileStoreLocation, options: TileServerOptions) throws(TileStoreError) -> TileServerEndpoint {
        let address = location.address
        let document = try? JSONParser.parse(data)
        guard case .array(let tiles)? = document?["tiles"], !tiles.isEmpty else {
            throw TileStoreError(.notATileStore, store: address, message: "is not a TileJSON document (no \"tiles\" array of URL templates)",
                                 hint: "give a tile URL template such as https://host/{z}/{x}/{y}.png, or the URL of a TileJSON document")
        }
        let isTMS = document?["scheme"]?.string == "tms"
        var templates: [TileURLTemplate] = []
        for tile in tiles {
            guard var text = tile.string else { continue }
            if let relative = URL(string: text, relativeTo: URL(string: address)), !text.contains("://") {
                text = relative.absoluteString.removingPercentEncoding ?? text
            }
            if isTMS { text = text.replacingOccurrences(of: "{y}", with: "{-y}") }
            templates.append(try TileURLTemplate(text, subdomains: options.subdomains, store: address))
        }
        var metadata = (try? MetadataJSON.decode(data)) ?? TileMetadata()
        for key in ["tiles", "tilejson", "scheme", "grids", "data", "template", "legend"] { metadata[key] = nil }
        if metadata["format"] == nil, let format = templates.first?.declaredFormat { metadata["format"] = format.rawValue }
        let minZoom = document?["minzoom"]?.int, maxZoom = document?["maxzoom"]?.int
        var zooms: ClosedRange<Int>?
        if let low = minZoom, let high = maxZoom, 0 <= low, low <= high, high <= TileCoordinate.maxZoom { zooms = low...high }
        return TileServerEndpoint(templates: templates, metadata: metadata, zooms: zooms, bounds: metadata.bounds)
    }

    /// The URL of a tile.
    func url(for tile: TileCoordinate) -> URL? {
        URL(string: templates[(tile.x + tile.y) % templates.count].url(for: tile))
    }
}
