/// One byte form for equal JSON values: no whitespace, object members sorted by the UTF-8 bytes
/// of their keys (a repeated key: the last one wins), strings decoded and escaped one way
/// (`\"`, `\\`, `\b \f \n \r \t`, `\u00XX` for other control characters, everything else as
/// UTF-8), numbers and literals as written. Deterministic on every platform, unlike a
/// serializer that sorts keys by locale.
struct CanonicalJSON {
    /// Nesting deeper than this is refused (hostile input).
    static let maxDepth = 64

    /// A parsed value, keeping numbers as their text.
    indirect enum Value {
        case object([(key: String, value: Value)])
        case array([Value])
        case string(String)
        case number(String)
        case literal(String)
    }

    private let bytes: [UInt8]
    private var offset = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON value (surrounding whitespace allowed, nothing else after it).
    /// - Throws: `UTFGridFormatError` naming the byte offset of the first problem.
    static func parse(_ bytes: some Collection<UInt8>) throws(UTFGridFormatError) -> Value {
        var parser = CanonicalJSON(Array(bytes))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == parser.bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }

    /// The canonical bytes of a value.
    static func encode(_ value: Value) -> [UInt8] {
        var out: [UInt8] = []
        encode(value, into: &out)
        return out
    }

    private static func encode(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case .object(let members):
            var latest: [String: Value] = [:]
            for member in members { latest[member.key] = member.value }
            out.append(UInt8(ascii: "{"))
            for (index, key) in latest.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                encodeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if let member = latest[key] { encode(member, into: &out) }
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                encode(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let string): encodeString(string, into: &out)
        case .number(let text), .literal(let text): out.append(contentsOf: text.utf8)
        }
    }

    private static func encodeString(_ string: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: Array("\\\"".utf8))
            case UInt8(ascii: "\\"): out.append(contentsOf: Array("\\\\".utf8))
            case 0x08: out.append(contentsOf: Array("\\b".utf8))
            case 0x0C: out.append(contentsOf: Array("\\f".utf8))
            case 0x0A: out.append(contentsOf: Array("\\n".utf8))
            case 0x0D: out.append(contentsOf: Array("\\r".utf8))
            case 0x09: out.append(contentsOf: Array("\\t".utf8))
            case ..<0x20: out.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private func failure(_ reason: String) -> UTFGridFormatError {
        UTFGridFormatError(reason: "not JSON: \(reason) at byte \(offset)")
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    private mutating func value(depth: Int) throws(UTFGridFormatError) -> Value {
        guard depth < Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth)") }
        guard offset < bytes.count else { throw failure("expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            offset += 1
            var members: [(key: String, value: Value)] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                try expect(UInt8(ascii: "}"))
                return .object(members)
            }
        case UInt8(ascii: "["):
            offset += 1
            var elements: [Value] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                try expect(UInt8(ascii: "]"))
                return .array(elements)
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            for literal in ["true", "false", "null"] where bytes[offset...].starts(with: literal.utf8) {
                offset += literal.utf8.count
                return .literal(literal)
            }
            throw failure("expected a value")
        }
    }

    private mutating func expect(_ byte: UInt8) throws(UTFGridFormatError) {
        guard offset < bytes.count, bytes[offset] == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
        offset += 1
    }

    private mutating func number() throws(UTFGridFormatError) -> String {
        let start = offset
        func digits() -> Int {
            let from = offset
            while offset < bytes.count, (48...57).contains(bytes[offset]) { offset += 1 }
            return offset - from
        }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integer = offset
        guard digits() > 0 else { throw failure("a number without digits") }
        if bytes[integer] == UInt8(ascii: "0"), offset - integer > 1 { throw failure("a number with a leading zero") }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw failure("a number without digits after '.'") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw failure("a number without exponent digits") }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func string() throws(UTFGridFormatError) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var run = offset
        func flush() { scalars.append(contentsOf: String(decoding: bytes[run..<offset], as: UTF8.self).unicodeScalars) }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                flush()
                offset += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                offset += 1
                continue
            }
            flush()
            offset += 1
            guard offset < bytes.count else { break }
            let escape = bytes[offset]
            offset += 1
            if let simple = Self.simpleEscape(escape) {
                scalars.append(simple)
                run = offset
                continue
            }
            guard escape == UInt8(ascii: "u") else { throw failure("a bad escape") }
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code), bytes[offset...].starts(with: Array("\\u".utf8)) {
                offset += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw failure("a lone surrogate") }
            scalars.append(scalar)
            run = offset
        }
        throw failure("an unterminated string")
    }

    /// The character of a one-letter JSON escape (`\n`, `\"`, ...); nil for `u` and bad escapes.
    static func simpleEscape(_ letter: UInt8) -> Unicode.Scalar? {
        switch letter {
        case UInt8(ascii: "\""): "\""
        case UInt8(ascii: "\\"): "\\"
        case UInt8(ascii: "/"): "/"
        case UInt8(ascii: "b"): "\u{08}"
        case UInt8(ascii: "f"): "\u{0C}"
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "t"): "\t"
        default: nil
        }
    }

    private mutating func hex4() throws(UTFGridFormatError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw failure("a short \\u escape") }
        var code: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt32
            switch byte {
            case 48...57: digit = UInt32(byte - 48)
            case 97...102: digit = UInt32(byte - 87)
            case 65...70: digit = UInt32(byte - 55)
            default: throw failure("a bad \\u escape")
            }
            code = code * 16 + digit
        }
        offset += 4
        return code
    }
}
