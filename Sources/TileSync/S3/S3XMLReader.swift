/// Reads the XML S3 answers with (listings, errors, delete and multipart results) into an
/// `S3XMLElement` tree, straight from the bytes: elements, attributes (skipped), character data
/// with the five named entities and numeric character references, CDATA sections, comments and
/// processing instructions (skipped). A document type declaration, a tag left open, an end tag
/// that does not match, an unknown entity or a second root make the document not well-formed
/// (nil): S3 sends none of them, and a hostile server gains nothing (no entity expansion).
///
/// It replaces FoundationXML's delegate parser, which was a large share of a no-op sync's CPU
/// (docs/performance.md, "Why the code is shaped so").
struct S3XMLReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var stack: [S3XMLElement] = []
    private var root: S3XMLElement?
    /// Deeper nesting is refused, so that a hostile answer cannot grow the stack without end.
    private static let maximumDepth = 64

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The document's root element; nil when the bytes are not one well-formed document.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> S3XMLElement? {
        var reader = S3XMLReader(bytes: bytes)
        guard reader.readDocument() else { return nil }
        return reader.root
    }

    private mutating func readDocument() -> Bool {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "<") {
                guard readMarkup() else { return false }
            } else {
                guard readText() else { return false }
            }
        }
        return root != nil && stack.isEmpty
    }

    /// Character data up to the next `<`: only whitespace outside the root.
    private mutating func readText() -> Bool {
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard let element = stack.last else { return run.allSatisfy(Self.isWhitespace) }
        if !run.contains(UInt8(ascii: "&")) {
            element.text += String(decoding: run, as: UTF8.self)
            return true
        }
        guard let decoded = Self.decodeEntities(run) else { return false }
        element.text += decoded
        return true
    }

    private mutating func readMarkup() -> Bool {
        guard position + 1 < bytes.count else { return false }
        switch bytes[position + 1] {
        case UInt8(ascii: "?"):
            return skip(past: "?>")
        case UInt8(ascii: "/"):
            return readEndTag()
        case UInt8(ascii: "!"):
            if startsHere("<!--") { return skip(past: "-->") }
            guard startsHere("<![CDATA["), let element = stack.last else { return false }
            let start = position + 9
            guard skip(past: "]]>") else { return false }
            element.text += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(position - 3)]), as: UTF8.self)
            return true
        default:
            return readStartTag()
        }
    }

    private mutating func readStartTag() -> Bool {
        position += 1
        guard let name = readName() else { return false }
        var selfClosing = false
        while true {
            guard position < bytes.count else { return false }
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else { return false }
                position += 2
                selfClosing = true
                break
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                position += 1
                while position < bytes.count, bytes[position] != byte { position += 1 }
                guard position < bytes.count else { return false }
            }
            position += 1
        }
        let element = S3XMLElement(name: name)
        if let parent = stack.last {
            parent.children.append(element)
        } else {
            guard root == nil else { return false }
            root = element
        }
        if !selfClosing {
            guard stack.count < Self.maximumDepth else { return false }
            stack.append(element)
        }
        return true
    }

    private mutating func readEndTag() -> Bool {
        position += 2
        guard let name = readName() else { return false }
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">"), stack.last?.name == name else { return false }
        position += 1
        stack.removeLast()
        return true
    }

    /// A tag's name without its namespace prefix (`s3:Key` is `Key`).
    private mutating func readName() -> String? {
        var local = position
        while position < bytes.count {
            let byte = bytes[position]
            if Self.isWhitespace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=") { return nil }
            if byte == UInt8(ascii: ":") { local = position + 1 }
            position += 1
        }
        guard position > local else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[local..<position]), as: UTF8.self)
    }

    /// True when the bytes at the position are `text`.
    private func startsHere(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return false }
        return true
    }

    /// Moves past the next `terminator`; false when there is none.
    private mutating func skip(past terminator: StaticString) -> Bool {
        while position < bytes.count {
            if startsHere(terminator) {
                position += terminator.utf8CodeUnitCount
                return true
            }
            position += 1
        }
        return false
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Character data with `&...;` references replaced; nil for an unknown or broken one.
    static func decodeEntities(_ run: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(run.count)
        var index = 0
        while index < run.count {
            let byte = run[index]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                index += 1
                continue
            }
            guard let end = run[index...].firstIndex(of: UInt8(ascii: ";")), end - index <= 12 else { return nil }
            let name = String(decoding: UnsafeBufferPointer(rebasing: run[(index + 1)..<end]), as: UTF8.self)
            switch name {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                guard name.hasPrefix("#") else { return nil }
                let hex = name.dropFirst().hasPrefix("x")
                let digits = name.dropFirst(hex ? 2 : 1)
                guard !digits.isEmpty, digits.allSatisfy({ hex ? $0.isHexDigit : $0.isASCII && $0.isNumber }),
                      let value = UInt32(digits, radix: hex ? 16 : 10), value != 0, let scalar = Unicode.Scalar(value) else { return nil }
                UTF8.encode(scalar) { out.append($0) }
            }
            index = end + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
