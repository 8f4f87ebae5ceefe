/// Writes a `JSONValue` as JSON text (UTF-8). Strings are escaped one way everywhere: `\"`,
/// `\\`, `\b \f \n \r \t`, `\u00XX` for other control characters, everything else as UTF-8
/// (slashes too); numbers as their text.
public enum JSONWriter {
    /// How members are laid out.
    public enum Style: Sendable {
        /// No whitespace, members in their order.
        case compact
        /// No whitespace, object members sorted by the UTF-8 bytes of their keys, a repeated key
        /// once (the last one): one byte form for equal values, for hashes and comparisons.
        /// Deterministic on every platform, unlike a serializer that sorts by locale.
        case canonical
    }

    /// The bytes of `value`.
    public static func bytes(_ value: JSONValue, style: Style = .compact) -> [UInt8] {
        var out: [UInt8] = []
        write(value, style: style, into: &out)
        return out
    }

    /// The text of `value`.
    public static func text(_ value: JSONValue, style: Style = .compact) -> String {
        String(decoding: bytes(value, style: style), as: UTF8.self)
    }

    /// A JSON string literal for `string`, quotes included.
    public static func quoted(_ string: String) -> String {
        var out: [UInt8] = []
        writeString(string, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, style: Style, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, style: style, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in (style == .canonical ? canonicalOrder(members) : members).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, style: style, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func canonicalOrder(_ members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        var latest: [String: JSONValue] = [:]
        for member in members { latest[member.key] = member.value }
        return latest.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case ..<0x20: out.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
