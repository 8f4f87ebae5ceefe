public import Foundation

/// Reads and writes `metadata.json`: a flat JSON object of string values as mb-util and
/// tippecanoe write it, and TileJSON (`tiles.json`). Key order is kept.
///
/// Reading maps each value to text: strings as they are, numbers as written, booleans as
/// `true`/`false`, null as a NULL value, `bounds`/`center` arrays of numbers as `a,b,c,d`, and
/// any other array or object as its compact JSON text.
public enum MetadataJSON {
    /// Nesting deeper than this is refused (hostile input).
    static let maxDepth = 64

    /// Parses a metadata document.
    /// - Throws: `MetadataJSONError` with the byte offset of the first problem.
    public static func decode(_ data: Data) throws(MetadataJSONError) -> TileMetadata {
        var parser = Parser(bytes: [UInt8](data))
        return try parser.parseDocument()
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
    /// - Throws: `MetadataJSONError` with the byte offset of the first problem.
    static func members(_ data: some Collection<UInt8>) throws(MetadataJSONError) -> [Member] {
        var parser = Parser(bytes: [UInt8](data))
        return try parser.parseMembers()
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

    /// A JSON string literal for `string`, escaping quotes, backslashes and control characters.
    public static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count)
                    + String(c.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private struct Parser {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        }

        mutating func parseDocument() throws(MetadataJSONError) -> TileMetadata {
            TileMetadata(try parseMembers().map { TileMetadata.Entry(key: $0.key, value: $0.text) })
        }

        mutating func parseMembers() throws(MetadataJSONError) -> [Member] {
            skipWhitespace()
            guard peek() == UInt8(ascii: "{") else { throw error("expected a JSON object") }
            offset += 1
            var entries: [Member] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                offset += 1
            } else {
                while true {
                    skipWhitespace()
                    let key = try parseString()
                    skipWhitespace()
                    try expect(UInt8(ascii: ":"))
                    skipWhitespace()
                    let start = offset
                    let value = try parseValue(depth: 1)
                    let isComposite: Bool
                    switch value {
                    case .composite: isComposite = true
                    case .numberArray: isComposite = key != "bounds" && key != "center"
                    default: isComposite = false
                    }
                    entries.append(Member(key: key, text: try text(of: value, key: key, from: start),
                                          json: compactJSON(bytes[start..<offset]), isComposite: isComposite))
                    skipWhitespace()
                    if peek() == UInt8(ascii: ",") { offset += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    break
                }
            }
            skipWhitespace()
            guard offset == bytes.count else { throw error("unexpected text after the object") }
            return entries
        }

        private enum Value {
            case string(String)
            case number
            case literal(String?)
            case numberArray([String])
            case composite
        }

        private func text(of value: Value, key: String, from start: Int) throws(MetadataJSONError) -> String? {
            switch value {
            case .string(let string): return string
            case .literal(let literal): return literal
            case .numberArray(let numbers) where key == "bounds" || key == "center":
                return numbers.joined(separator: ",")
            case .number, .numberArray, .composite:
                return compactJSON(bytes[start..<offset])
            }
        }

        /// The raw JSON text with insignificant whitespace removed.
        private func compactJSON(_ slice: ArraySlice<UInt8>) -> String {
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

        private mutating func parseValue(depth: Int) throws(MetadataJSONError) -> Value {
            guard depth <= MetadataJSON.maxDepth else { throw error("nesting deeper than \(MetadataJSON.maxDepth)") }
            switch peek() {
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "{"):
                offset += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { offset += 1; return .composite }
                while true {
                    skipWhitespace()
                    _ = try parseString()
                    skipWhitespace()
                    try expect(UInt8(ascii: ":"))
                    skipWhitespace()
                    _ = try parseValue(depth: depth + 1)
                    skipWhitespace()
                    if peek() == UInt8(ascii: ",") { offset += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    return .composite
                }
            case UInt8(ascii: "["):
                offset += 1
                skipWhitespace()
                var numbers: [String] = []
                var allNumbers = true
                if peek() == UInt8(ascii: "]") { offset += 1; return .composite }
                while true {
                    skipWhitespace()
                    let start = offset
                    let element = try parseValue(depth: depth + 1)
                    if case .number = element {
                        numbers.append(String(decoding: bytes[start..<offset], as: UTF8.self))
                    } else {
                        allNumbers = false
                    }
                    skipWhitespace()
                    if peek() == UInt8(ascii: ",") { offset += 1; continue }
                    try expect(UInt8(ascii: "]"))
                    return allNumbers ? .numberArray(numbers) : .composite
                }
            case UInt8(ascii: "t"): try expectWord("true"); return .literal("true")
            case UInt8(ascii: "f"): try expectWord("false"); return .literal("false")
            case UInt8(ascii: "n"): try expectWord("null"); return .literal(nil)
            case let byte? where byte == UInt8(ascii: "-") || (48...57).contains(byte):
                try parseNumber()
                return .number
            default:
                throw error("expected a value")
            }
        }

        private mutating func parseNumber() throws(MetadataJSONError) {
            if peek() == UInt8(ascii: "-") { offset += 1 }
            guard let first = peek(), (48...57).contains(first) else { throw error("malformed number") }
            if first == 48 { offset += 1 } else { skipDigits() }
            if peek() == UInt8(ascii: ".") {
                offset += 1
                guard let digit = peek(), (48...57).contains(digit) else { throw error("malformed number") }
                skipDigits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                offset += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
                guard let digit = peek(), (48...57).contains(digit) else { throw error("malformed number") }
                skipDigits()
            }
        }

        private mutating func skipDigits() {
            while let byte = peek(), (48...57).contains(byte) { offset += 1 }
        }

        private mutating func parseString() throws(MetadataJSONError) -> String {
            try expect(UInt8(ascii: "\""))
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                if !run.isEmpty {
                    scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                    run.removeAll(keepingCapacity: true)
                }
            }
            while true {
                guard let byte = peek() else { throw error("unterminated string") }
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard let escape = peek() else { throw error("unterminated escape") }
                    offset += 1
                    if let simple = CanonicalJSON.simpleEscape(escape) {
                        scalars.append(simple)
                    } else if escape == UInt8(ascii: "u") {
                        scalars.append(try parseUnicodeEscape())
                    } else {
                        throw error("invalid escape")
                    }
                case 0..<0x20:
                    throw error("control character in string")
                default:
                    run.append(byte)
                }
            }
        }

        private mutating func parseUnicodeEscape() throws(MetadataJSONError) -> Unicode.Scalar {
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high), bytes.count >= offset + 6,
               bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                let saved = offset
                offset += 2
                let low = try parseHex4()
                if (0xDC00..<0xE000).contains(low),
                   let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) {
                    return scalar
                }
                offset = saved
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        }

        private mutating func parseHex4() throws(MetadataJSONError) -> UInt32 {
            guard bytes.count >= offset + 4,
                  let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
            else { throw error("invalid \\u escape") }
            offset += 4
            return value
        }

        private mutating func expectWord(_ word: String) throws(MetadataJSONError) {
            let utf8 = Array(word.utf8)
            guard bytes.count >= offset + utf8.count, Array(bytes[offset..<offset + utf8.count]) == utf8 else {
                throw error("expected \(word)")
            }
            offset += utf8.count
        }

        private mutating func expect(_ byte: UInt8) throws(MetadataJSONError) {
            guard peek() == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
            offset += 1
        }

        private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        private mutating func skipWhitespace() {
            while let byte = peek(), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { offset += 1 }
        }

        private func error(_ reason: String) -> MetadataJSONError {
            MetadataJSONError(reason: reason, offset: offset)
        }
    }
}
