public import Foundation

/// Reads and writes `metadata.json`: a flat JSON object of string values as mb-util and
/// tippecanoe write it, and TileJSON (`tiles.json`). Key order is kept.
///
/// Reading maps each value to text: strings as they are, numbers as written, booleans as
/// `true`/`false`, null as a NULL value, `bounds`/`center` arrays of numbers as `a,b,c,d`, and
/// any other array or object as its compact JSON text.
public enum MetadataJSON {
    /// How metadata documents are parsed: lenient with lone surrogates, which some writers emit.
    static let limits = JSONParser.Limits(replacesLoneSurrogates: true)

    /// Parses a metadata document.
    /// - Throws: `JSONError` with the byte offset of the first problem.
    public static func decode(_ data: Data) throws(JSONError) -> TileMetadata {
        TileMetadata(try members(data).map { TileMetadata.Entry(key: $0.key, value: $0.text) })
    }

    /// One member of a metadata object: its value as `decode` gives it, its compact JSON text,
    /// and whether it is an object or array (other than `bounds`/`center` numbers).
    struct Member {
        let key: String
        let text: String?
        let json: String
        let isComposite: Bool
    }

    /// The members of a metadata document, in order, for stores whose metadata holds JSON
    /// values, not just text (PMTiles).
    /// - Throws: `JSONError` with the byte offset of the first problem.
    static func members(_ data: some Collection<UInt8>) throws(JSONError) -> [Member] {
        let bytes = Array(data)
        return try JSONParser.objectMembers(bytes, limits: limits).map { member in
            let json = compactText(bytes[member.range])
            let numbers = member.value.array.flatMap { elements in
                elements.isEmpty ? nil : elements.map { element -> String? in
                    if case .number(let text) = element { return text }
                    return nil
                }
            }
            let isPosition = member.key == "bounds" || member.key == "center"
            let text: String?
            var isComposite = false
            switch member.value {
            case .string(let string): text = string
            case .bool(let flag): text = flag ? "true" : "false"
            case .null: text = nil
            case .number: text = json
            case .array where isPosition && numbers?.allSatisfy({ $0 != nil }) == true:
                text = numbers?.compactMap { $0 }.joined(separator: ",")
            case .array, .object:
                text = json
                isComposite = true
            }
            return Member(key: member.key, text: text, json: json, isComposite: isComposite)
        }
    }

    /// Writes metadata as a pretty-printed flat JSON object with string (or null) values.
    public static func encode(_ metadata: TileMetadata) -> Data {
        var text = "{"
        for (index, entry) in metadata.entries.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += "  " + quoted(entry.key) + ": " + (entry.value.map(quoted) ?? "null")
        }
        text += metadata.isEmpty ? "}\n" : "\n}\n"
        return Data(text.utf8)
    }

    /// A JSON string literal for `string` (`JSONWriter.quoted`).
    public static func quoted(_ string: String) -> String { JSONWriter.quoted(string) }

    /// JSON text as written with the whitespace between tokens removed.
    private static func compactText(_ slice: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in slice {
            if inString {
                out.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                out.append(byte)
            } else if ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
