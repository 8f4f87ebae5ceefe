/// Reads JSON text (RFC 8259) byte by byte into a `JSONValue`: members in document order,
/// numbers as written, a leading UTF-8 byte order mark skipped, invalid UTF-8 inside strings
/// read as U+FFFD. Hostile documents get bounded work: nesting and size are capped by
/// `Limits`, and every refusal is a `JSONError` with the byte offset of the problem.
public struct JSONParser {
    /// What a document may hold at most.
    public struct Limits: Sendable {
        /// Values nested deeper than this (the top value is at depth 0) are refused.
        public var maxDepth: Int
        /// Documents longer than this many bytes are refused before parsing.
        public var maxBytes: Int
        /// True to read a `\u` escape of a lone UTF-16 surrogate as U+FFFD, as lenient writers
        /// need; false to refuse it.
        public var replacesLoneSurrogates: Bool

        public init(maxDepth: Int = 64, maxBytes: Int = 256 << 20, replacesLoneSurrogates: Bool = false) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
            self.replacesLoneSurrogates = replacesLoneSurrogates
        }
    }

    /// One member of a top-level object with the bytes its value was written in.
    struct Member {
        let key: String
        let value: JSONValue
        let range: Range<Int>
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private let source: String?
    private var offset = 0

    private init(_ bytes: [UInt8], limits: Limits, source: String?) throws(JSONError) {
        self.bytes = bytes
        self.limits = limits
        self.source = source
        guard bytes.count <= limits.maxBytes else {
            throw JSONError(reason: "a document larger than \(limits.maxBytes) bytes", offset: limits.maxBytes, source: source)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    /// Parses one JSON value; whitespace may surround it, nothing else may follow it.
    /// - Parameter source: the file or object the bytes came from, named in errors.
    /// - Throws: `JSONError` naming the first problem and its byte offset.
    public static func parse(_ bytes: some Collection<UInt8>, source: String? = nil, limits: Limits = Limits()) throws(JSONError) -> JSONValue {
        var parser = try JSONParser(Array(bytes), limits: limits, source: source)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        try parser.expectEnd()
        return value
    }

    /// The members of a document that must be one object, each with the byte range of its
    /// value, for readers that keep a member's text as written.
    /// - Throws: `JSONError`; `expected a JSON object` at the first value when it is not one.
    static func objectMembers(_ bytes: some Collection<UInt8>, source: String? = nil, limits: Limits = Limits()) throws(JSONError) -> [Member] {
        var parser = try JSONParser(Array(bytes), limits: limits, source: source)
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else { throw parser.failure("expected a JSON object") }
        var members: [Member] = []
        try parser.object(depth: 0) { key, parser throws(JSONError) in
            let start = parser.offset
            let value = try parser.value(depth: 1)
            members.append(Member(key: key, value: value, range: start..<parser.offset))
            return value
        }
        try parser.expectEnd()
        return members
    }

    private mutating func expectEnd() throws(JSONError) {
        skipWhitespace()
        guard offset == bytes.count else { throw failure("text after the JSON value") }
    }

    private func failure(_ reason: String) -> JSONError {
        JSONError(reason: reason, offset: offset, source: source)
    }

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard peek() == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
        offset += 1
    }

    private mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard depth < limits.maxDepth else { throw failure("nesting deeper than \(limits.maxDepth)") }
        guard let byte = peek() else { throw failure("expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            var members: [(key: String, value: JSONValue)] = []
            try object(depth: depth) { key, parser throws(JSONError) in
                let value = try parser.value(depth: depth + 1)
                members.append((key, value))
                return value
            }
            return .object(members)
        case UInt8(ascii: "["):
            return .array(try array(depth: depth))
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        default: throw failure("expected a value")
        }
    }

    private mutating func object(depth: Int, member: (String, inout JSONParser) throws(JSONError) -> JSONValue) throws(JSONError) {
        offset += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            _ = try member(key, &self)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    private mutating func array(depth: Int) throws(JSONError) -> [JSONValue] {
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            return elements
        }
    }

    private mutating func word(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { word in
            offset + count <= bytes.count && bytes[offset..<offset + count].elementsEqual(word)
        }
        guard matches else { throw failure("expected a value") }
        offset += count
    }

    private mutating func digits() -> Int {
        let from = offset
        while offset < bytes.count, (48...57).contains(bytes[offset]) { offset += 1 }
        return offset - from
    }

    private mutating func number() throws(JSONError) -> String {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integer = offset
        guard digits() > 0 else { throw failure("a number without digits") }
        if bytes[integer] == UInt8(ascii: "0"), offset - integer > 1 { throw failure("a number with a leading zero") }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw failure("a number without digits after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw failure("a number without exponent digits") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            offset = start
            throw failure("a number out of range")
        }
        return text
    }

    private mutating func string() throws(JSONError) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var run = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text: String
                if scalars.isEmpty {
                    text = String(decoding: bytes[run..<offset], as: UTF8.self)
                } else {
                    scalars.append(contentsOf: String(decoding: bytes[run..<offset], as: UTF8.self).unicodeScalars)
                    text = String(scalars)
                }
                offset += 1
                return text
            }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                offset += 1
                continue
            }
            scalars.append(contentsOf: String(decoding: bytes[run..<offset], as: UTF8.self).unicodeScalars)
            offset += 1
            guard let escape = peek() else { break }
            offset += 1
            if let simple = Self.simpleEscape(escape) {
                scalars.append(simple)
            } else if escape == UInt8(ascii: "u") {
                scalars.append(try unicodeEscape())
            } else {
                throw failure("a bad escape")
            }
            run = offset
        }
        throw failure("an unterminated string")
    }

    private mutating func unicodeEscape() throws(JSONError) -> Unicode.Scalar {
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code), bytes[offset...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
            let saved = offset
            offset += 2
            let low = try hex4()
            if (0xDC00..<0xE000).contains(low) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
                offset = saved
            }
        }
        if let scalar = Unicode.Scalar(code) { return scalar }
        guard limits.replacesLoneSurrogates else { throw failure("a lone surrogate") }
        return "\u{FFFD}"
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
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

    /// The character of a one-letter escape (`\n`, `\"`, ...); nil for `u` and bad escapes.
    private static func simpleEscape(_ letter: UInt8) -> Unicode.Scalar? {
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
}
