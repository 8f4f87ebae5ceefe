import TileSync

/// The `{z}/{x}/{y}.{ext}` of a tile request: decimal numbers without signs, a zoom of at most
/// `TileCoordinate.maxZoom`, a column and row inside the zoom's grid (400 otherwise), and an
/// extension, when given, that names the store's format (404 otherwise: `.pbf` or `.mvt` for
/// vector tiles, `.jpg` or `.jpeg` for JPEG).
enum TileRequestPath {
    struct Problem: Error {
        let status: Int
        let message: String
    }

    static func coordinate(z zText: String, x xText: String, y yText: String, format: TileFormat) -> Result<TileCoordinate, Problem> {
        var rowText = Substring(yText), given: Substring?
        if let dot = yText.firstIndex(of: ".") {
            rowText = yText[..<dot]
            given = yText[yText.index(after: dot)...]
        }
        guard let z = number(Substring(zText), digits: 2), let x = number(Substring(xText), digits: 10), let y = number(rowText, digits: 10) else {
            return .failure(Problem(status: 400, message: "a tile path is /NAME/{z}/{x}/{y}.\(format.fileExtension) with decimal numbers"))
        }
        guard z <= TileCoordinate.maxZoom else {
            return .failure(Problem(status: 400, message: "zoom \(z) is out of range (0 to \(TileCoordinate.maxZoom))"))
        }
        guard let coordinate = try? TileCoordinate(z: z, x: x, y: y) else {
            return .failure(Problem(status: 400, message: "tile \(z)/\(x)/\(y) is outside zoom \(z)'s grid (columns and rows 0 to \((1 << z) - 1))"))
        }
        if let given, !accepts(given.lowercased(), for: format) {
            return .failure(Problem(status: 404, message: "this store holds \(format.fileExtension) tiles: /{z}/{x}/{y}.\(format.fileExtension)"))
        }
        return .success(coordinate)
    }

    private static func accepts(_ extensionName: String, for format: TileFormat) -> Bool {
        switch format {
        case .pbf: ["pbf", "mvt"].contains(extensionName)
        case .jpeg: ["jpg", "jpeg"].contains(extensionName)
        case .unknown: true
        default: extensionName == format.fileExtension
        }
    }

    private static func number(_ text: Substring, digits: Int) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= digits else { return nil }
        var value = 0
        for byte in utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
