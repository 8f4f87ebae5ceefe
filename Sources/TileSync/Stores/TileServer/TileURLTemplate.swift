import Foundation

/// A tile server's URL template: `{z}`, `{x}`, `{y}` (XYZ rows), `{-y}` (TMS rows), `{q}` (a
/// Bing quadkey) and `{s}` (one of the subdomains, the same one for a tile every time).
struct TileURLTemplate: Sendable, Equatable {
    /// The template as given.
    let text: String
    /// Letters or names `{s}` takes, in turn by tile.
    let subdomains: [String]

    /// - Throws: `TileStoreError` `.invalidOptions` when the template does not name a tile
    ///   (`{z}` with `{x}` and `{y}` or `{-y}`, or `{q}`), or has `{s}` without subdomains.
    init(_ text: String, subdomains: [String], store: String) throws(TileStoreError) {
        let hasZXY = text.contains("{z}") && text.contains("{x}") && (text.contains("{y}") || text.contains("{-y}"))
        guard hasZXY || text.contains("{q}") else {
            throw TileStoreError(.invalidOptions, store: store, message: "a tile URL needs {z}, {x} and {y} (or {-y}), or {q}",
                                 hint: "e.g. https://tile.example.com/{z}/{x}/{y}.png")
        }
        guard !text.contains("{s}") || !subdomains.isEmpty else {
            throw TileStoreError(.invalidOptions, store: store, message: "the URL has {s} but no subdomains were given",
                                 hint: "pass --subdomains abc (each letter one subdomain) or a,b,c")
        }
        self.text = text
        self.subdomains = subdomains
        parts = Self.parts(of: text)
    }

    /// The template cut into text and placeholders once, so a URL is one concatenation.
    private enum Part: Sendable, Equatable {
        case text(String)
        case z, x, y, tmsY, quadkey, subdomain
    }

    private let parts: [Part]

    private static func parts(of text: String) -> [Part] {
        let names: [Substring: Part] = ["{z}": .z, "{x}": .x, "{y}": .y, "{-y}": .tmsY, "{q}": .quadkey, "{s}": .subdomain]
        var parts: [Part] = [], literal = Substring(), rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            rest = rest[open...]
            if let close = rest.firstIndex(of: "}"), let part = names[rest[...close]] {
                if !literal.isEmpty { parts.append(.text(String(literal))) }
                literal = ""
                parts.append(part)
                rest = rest[rest.index(after: close)...]
            } else {
                literal += rest.prefix(1)
                rest = rest.dropFirst()
            }
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(String(literal))) }
        return parts
    }

    /// The URL of a tile.
    func url(for tile: TileCoordinate) -> String {
        var url = ""
        url.reserveCapacity(text.utf8.count + 16)
        for part in parts {
            switch part {
            case .text(let text): url += text
            case .z: url += String(tile.z)
            case .x: url += String(tile.x)
            case .y: url += String(tile.y)
            case .tmsY: url += String(tile.tmsY)
            case .quadkey: url += tile.quadkey
            case .subdomain: url += subdomains.isEmpty ? "{s}" : subdomains[(tile.x + tile.y) % subdomains.count]
            }
        }
        return url
    }

    /// The format the URL's extension names (`.png`, `.pbf`, `.mvt`, ...), nil when it names none.
    var declaredFormat: TileFormat? {
        let path = text.split(separator: "?", maxSplits: 1).first.map(String.init) ?? text
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return TileFormat(declared: String(path[path.index(after: dot)...]).lowercased())
    }

    /// Subdomains from `abc` (each letter one) or `a,b,c`.
    static func subdomains(_ text: String) -> [String] {
        text.contains(",") ? text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            : text.map(String.init)
    }
}
