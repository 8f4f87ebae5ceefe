import TileSync

/// The `{z}/{x}/{y}.{ext}` of a tile request: decimal numbers without signs, a zoom of at most
/// `TileCoordinate.maxZoom`, a column and row inside the zoom's grid (400 otherwise), and an
/// extension, when given, that names the store's format in any case (404 otherwise: `.pbf` or
/// `.mvt` for vector tiles, `.jpg` or `.jpeg` for JPEG).
enum TileRequestPath {
    struct Problem: Error {
        let status: Int
        let message: String
    }

    static func coordinate(z: String, x: String, y: String, format: TileFormat) -> Result<TileCoordinate, Problem> {
        coordinate(z: z.utf8, x: x.utf8, y: y.utf8, format: format)
    }

    /// The coordinate from the UTF-8 bytes of the three segments (the row's with its extension).
    static func coordinate<Text: Collection<UInt8>>(z zText: Text, x xText: Text, y yText: Text, format: TileFormat) -> Result<TileCoordinate, Problem> {
        var rowText = yText[...], given: Text.SubSequence?
        if let dot = yText.firstIndex(of: UInt8(ascii: ".")) {
            rowText = yText[..<dot]
            given = yText[yText.index(after: dot)...]
        }
        guard let z = number(zText, digits: 2), let x = number(xText, digits: 10), let y = number(rowText, digits: 10) else {
            return .failure(Problem(status: 400, message: "a tile path is /NAME/{z}/{x}/{y}.\(format.fileExtension) with decimal numbers"))
        }
        guard z <= TileCoordinate.maxZoom else {
            return .failure(Problem(status: 400, message: "zoom \(z) is out of range (0 to \(TileCoordinate.maxZoom))"))
        }
        guard let coordinate = try? TileCoordinate(z: z, x: x, y: y) else {
            return .failure(Problem(status: 400, message: "tile \(z)/\(x)/\(y) is outside zoom \(z)'s grid (columns and rows 0 to \((1 << z) - 1))"))
        }
        if let given, !accepts(given, for: format) {
            return .failure(Problem(status: 404, message: "this store holds \(format.fileExtension) tiles: /{z}/{x}/{y}.\(format.fileExtension)"))
        }
        return .success(coordinate)
    }

    private static func accepts(_ given: some Collection<UInt8>, for format: TileFormat) -> Bool {
        switch format {
        case .pbf: equalIgnoringCase(given, "pbf") || equalIgnoringCase(given, "mvt")
        case .jpeg: equalIgnoringCase(given, "jpg") || equalIgnoringCase(given, "jpeg")
        case .unknown: true
        default: equalIgnoringCase(given, format.fileExtension)
        }
    }

    /// ASCII letters compared without case; `name` is lower case.
    private static func equalIgnoringCase(_ bytes: some Collection<UInt8>, _ name: String) -> Bool {
        guard bytes.count == name.utf8.count else { return false }
        var index = bytes.startIndex
        for expected in name.utf8 {
            let given = bytes[index]
            guard given == expected || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(given) && given | 0x20 == expected else { return false }
            bytes.formIndex(after: &index)
        }
        return true
    }

    private static func number(_ text: some Collection<UInt8>, digits: Int) -> Int? {
        guard !text.isEmpty, text.count <= digits else { return nil }
        var value = 0
        for byte in text {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
