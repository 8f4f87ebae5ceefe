/// One line of a tile list as osm2pgsql's expire output writes it (`z/x/y`), or with spaces,
/// tabs or commas between the numbers; blank lines and `#` comments hold no tile.
enum TileListLine {
    /// The longest line read, in bytes: a coordinate takes at most 24.
    static let maximumLength = 256

    /// The tile of a line, nil for a blank line or a comment.
    /// - Throws: what is wrong with the line.
    static func parse(_ line: ArraySlice<UInt8>) throws(TileListLineProblem) -> TileCoordinate? {
        var numbers: [Int] = []
        var current: Int?
        var sawContent = false
        for byte in line {
            switch byte {
            case UInt8(ascii: "#") where !sawContent:
                return nil
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let value = (current ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
                guard value <= Int(UInt32.max) else { throw TileListLineProblem("a number is too large") }
                current = value
                sawContent = true
            case UInt8(ascii: "/"), UInt8(ascii: ","), 0x20, 0x09, 0x0D:
                if let value = current { numbers.append(value) }
                current = nil
            default:
                let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : "byte \(byte)"
                throw TileListLineProblem("not z/x/y (found \(shown))")
            }
        }
        if let value = current { numbers.append(value) }
        guard sawContent else { return nil }
        guard numbers.count == 3 else { throw TileListLineProblem("not z/x/y (\(numbers.count) number\(numbers.count == 1 ? "" : "s"))") }
        do {
            return try TileCoordinate(z: numbers[0], x: numbers[1], y: numbers[2])
        } catch {
            throw TileListLineProblem(error.description)
        }
    }
}

/// What is wrong with one line of a tile list.
struct TileListLineProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
