import Foundation

/// Where tiles live inside a folder or archive, e.g. `{z}/{x}/{y}.{ext}`.
///
/// Fields: `{z}`, `{x}`, `{y}` (XYZ row), `{-y}` (TMS row), `{q}` (quadkey, which also gives the
/// zoom), `{ext}` (file extension). A numeric field may carry a format after a colon:
/// - a width it is zero-padded to: `{x:4}` writes `0012` (reading accepts any padding);
/// - `x` for hexadecimal digits: `{y:8x}` writes `0000029a` (reading accepts either case);
/// - `/N` to split the padded digits into folders of N digits, the first folder taking what is
///   left over: `{x:6/3}` writes `000/012`, and `1048/576` once a value outgrows the width.
///
/// Separate two fields by literal text. Named layouts stand for common trees: `xyz`, `tms`,
/// `zyx`, `safe` (tilelive-file), `tc` and `mp` (MapProxy, TMS rows), `arcgis` (ArcGIS exploded
/// cache), `quadkey` (see `PathTemplate.named`).
public struct PathTemplate: Hashable, Sendable, CustomStringConvertible {
    /// `{z}/{x}/{y}.{ext}`, the layout of mb-util, tilelive and web servers.
    public static let xyz = PathTemplate(validated: "{z}/{x}/{y}.{ext}")
    /// `{z}/{x}/{-y}.{ext}`: the same tree with TMS rows.
    public static let tms = PathTemplate(validated: "{z}/{x}/{-y}.{ext}")

    /// The layouts that have a name (accepted wherever a template is), with what uses them.
    public static let named: [(name: String, template: PathTemplate, usedBy: String)] = [
        ("xyz", .xyz, "mb-util, tilelive, web servers"),
        ("tms", .tms, "TMS rows, e.g. mb-util --scheme tms"),
        ("zyx", PathTemplate(validated: "{z}/{y}/{x}.{ext}"), "row folders"),
        ("safe", PathTemplate(validated: "{z}/{x:6/3}/{y:6/3}.{ext}"), "tilelive-file's safe layout"),
        ("tc", PathTemplate(validated: "{z:2}/{x:9/3}/{-y:9/3}.{ext}"), "MapProxy and TileCache 'tc'"),
        ("mp", PathTemplate(validated: "{z:2}/{x:8/4}/{-y:8/4}.{ext}"), "MapProxy 'mp'"),
        ("arcgis", PathTemplate(validated: "L{z:2}/R{y:8x}/C{x:8x}.{ext}"), "ArcGIS exploded caches"),
        ("quadkey", PathTemplate(validated: "{q}.{ext}"), "Bing quadkeys"),
    ]

    enum Field: String, Hashable, Sendable {
        case z, x, y, tmsY = "-y", quadkey = "q", ext

        var bit: UInt8 {
            switch self {
            case .z: 1
            case .x: 2
            case .y: 4
            case .tmsY: 8
            case .quadkey: 16
            case .ext: 32
            }
        }
    }

    /// How a numeric field is written: padding, digits, and which folder's share of them.
    struct FieldFormat: Hashable, Sendable {
        /// Zero-padded to this many digits (0: no padding).
        var width = 0
        /// 10, or 16 for hexadecimal.
        var radix = 10
        /// Digits per folder when split (0: not split).
        var groupSize = 0
        /// How many folders the digits are split into (1 when not split).
        var groupCount = 1
        /// Which of them this piece is (0 is the first, which takes the digits left over).
        var group = 0

        static let plain = FieldFormat()

        var isLastGroup: Bool { group == groupCount - 1 }
    }

    enum Piece: Hashable, Sendable {
        case literal([UInt8])
        case field(Field, FieldFormat)
    }

    /// The result of matching a path against the template.
    enum Match: Equatable {
        /// The path does not have the template's shape.
        case notATile
        case tile(TileCoordinate, fileExtension: String?)
        /// The shape fits but a value is out of range or too large.
        case invalid(String)
    }

    /// One step of writing a path: literal bytes (a range of `writeLiterals`, slashes
    /// included) or a field. Plain values, so that writing a path copies no references.
    enum WriteStep: Hashable, Sendable {
        case literal(Range<Int>)
        case field(Field, FieldFormat)
    }

    /// The template as written (a named layout is kept as its template).
    public let text: String
    let segments: [[Piece]]
    /// The segments as steps for `appendPath`, and the literal bytes they point into.
    private let writeSteps: [WriteStep]
    private let writeLiterals: [UInt8]

    /// Parses a template or a named layout (`PathTemplate.named`).
    /// - Throws: `PathTemplate.ParseError` when it is empty, absolute, has `..` or empty segments,
    ///   unknown or repeated fields, bad formats, adjacent fields, or lacks a zoom, column or row.
    public init(_ text: String) throws(PathTemplate.ParseError) {
        if let named = Self.named.first(where: { $0.name == text.lowercased() }) {
            self = named.template
            return
        }
        self.text = text
        segments = try Self.parse(text)
        (writeSteps, writeLiterals) = Self.writeSteps(of: segments)
    }

    private init(validated text: String) {
        self.text = text
        do {
            segments = try Self.parse(text)
        } catch {
            preconditionFailure("built-in layout \(text): \(error)")
        }
        (writeSteps, writeLiterals) = Self.writeSteps(of: segments)
    }

    private static func writeSteps(of segments: [[Piece]]) -> ([WriteStep], [UInt8]) {
        var steps: [WriteStep] = [], literals: [UInt8] = []
        func literal(_ bytes: [UInt8]) {
            if case .literal(let previous)? = steps.last, previous.upperBound == literals.count {
                steps[steps.count - 1] = .literal(previous.lowerBound..<previous.upperBound + bytes.count)
            } else {
                steps.append(.literal(literals.count..<literals.count + bytes.count))
            }
            literals.append(contentsOf: bytes)
        }
        for (index, segment) in segments.enumerated() {
            if index > 0 { literal([UInt8(ascii: "/")]) }
            for piece in segment {
                switch piece {
                case .literal(let bytes): literal(bytes)
                case .field(let field, let format): steps.append(.field(field, format))
                }
            }
        }
        return (steps, literals)
    }

    private static func parse(_ text: String) throws(PathTemplate.ParseError) -> [[Piece]] {
        func fail(_ reason: String) -> PathTemplate.ParseError { PathTemplate.ParseError(template: text, reason: reason) }
        guard !text.isEmpty else { throw fail("is empty") }
        guard !text.hasPrefix("/") else { throw fail("must be relative") }
        var segments: [[Piece]] = []
        var pieces: [Piece] = []
        var literal = ""
        var seen: Set<Field> = []

        func endSegment() throws(PathTemplate.ParseError) {
            if !literal.isEmpty { pieces.append(.literal(Array(literal.utf8))); literal = "" }
            guard !pieces.isEmpty, pieces != [.literal(Array(".".utf8))], pieces != [.literal(Array("..".utf8))] else {
                throw fail("has an empty, '.' or '..' path segment")
            }
            if pieces == [.field(.quadkey, .plain)] {
                throw fail("has a segment of only {q}, which is empty at zoom 0 (write e.g. {q}.{ext})")
            }
            segments.append(pieces)
            pieces = []
        }

        var rest = Substring(text)
        while let character = rest.first {
            switch character {
            case "/":
                try endSegment()
                rest = rest.dropFirst()
            case "}":
                throw fail("has a stray '}'")
            case "{":
                guard let close = rest.firstIndex(of: "}") else { throw fail("has an unclosed '{'") }
                let body = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                let (field, format) = try Self.field(body, fail: fail)
                guard seen.insert(field).inserted else { throw fail("repeats {\(field.rawValue)}") }
                if !literal.isEmpty { pieces.append(.literal(Array(literal.utf8))); literal = "" }
                if case .field = pieces.last { throw fail("needs text between two fields") }
                for group in 0..<format.groupCount {
                    if group > 0 { try endSegment() }
                    var piece = format
                    piece.group = group
                    pieces.append(.field(field, piece))
                }
            default:
                literal.append(character)
                rest = rest.dropFirst()
            }
        }
        try endSegment()
        let hasRow = seen.contains(.y) || seen.contains(.tmsY)
        guard seen.contains(.quadkey) || (seen.contains(.z) && seen.contains(.x) && hasRow),
              !(seen.contains(.y) && seen.contains(.tmsY)),
              !(seen.contains(.quadkey) && (seen.contains(.x) || hasRow))
        else {
            throw fail("needs {z}, {x} and one of {y} or {-y}, or {q}")
        }
        return segments
    }

    /// The field and format of a `{...}` body: `x`, `y:8x`, `x:6/3`.
    private static func field(_ body: Substring, fail: (String) -> PathTemplate.ParseError) throws(PathTemplate.ParseError) -> (Field, FieldFormat) {
        let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let field = Field(rawValue: String(parts[0])) else {
            throw fail("has an unknown field {\(body)} (use {z} {x} {y} {-y} {q} {ext})")
        }
        guard parts.count == 2 else { return (field, .plain) }
        guard field != .ext, field != .quadkey, let format = Self.format(parts[1]) else {
            throw fail("has a bad format in {\(body)} (e.g. {x:4}, {y:8x}, {x:6/3})")
        }
        return (field, format)
    }

    /// `4`, `8x`, `6/3`, `9x/3`, `x`: width (1-10), hexadecimal, digits per folder.
    private static func format(_ text: Substring) -> FieldFormat? {
        var format = FieldFormat.plain
        var rest = text
        let widthText = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(widthText.count)
        if !widthText.isEmpty {
            guard let width = DecimalText.integer(widthText), (1...10).contains(width) else { return nil }
            format.width = width
        }
        if rest.first == "x" {
            format.radix = 16
            rest = rest.dropFirst()
        }
        if rest.first == "/" {
            guard let size = DecimalText.integer(rest.dropFirst()), size >= 1, size < format.width else { return nil }
            format.groupSize = size
            format.groupCount = (format.width + size - 1) / size
            rest = rest[rest.endIndex...]
        }
        guard rest.isEmpty, format.width > 0 || format.radix == 16 else { return nil }
        return format
    }

    /// Where a tile's UTFGrid lives beside it, as mb-util writes it: `.{ext}` at the end becomes
    /// `.grid.json` (`{z}/{x}/{y}.grid.json`), and a template without `{ext}` gets `.grid.json`
    /// appended; nil when `{ext}` is elsewhere in the template.
    public var gridTemplate: PathTemplate? {
        let suffix = ".{ext}"
        if text.hasSuffix(suffix) { return try? PathTemplate(String(text.dropLast(suffix.count)) + ".grid.json") }
        return hasExtension ? nil : try? PathTemplate(text + ".grid.json")
    }

    /// The named layout this template is, if any.
    public var name: String? { Self.named.first { $0.template == self }?.name }

    /// True when rows are TMS (`{-y}`).
    public var usesTMSRows: Bool { segments.joined().contains { isField($0, .tmsY) } }

    /// True when the template has an `{ext}` field.
    public var hasExtension: Bool { segments.joined().contains { isField($0, .ext) } }

    /// The same template with XYZ rows turned into TMS rows (`--scheme tms`).
    public func withTMSRows() -> PathTemplate {
        (try? PathTemplate(text.replacingOccurrences(of: "{y", with: "{-y"))) ?? self
    }

    /// The same template with TMS rows turned into XYZ rows.
    func withXYZRows() -> PathTemplate {
        (try? PathTemplate(text.replacingOccurrences(of: "{-y", with: "{y"))) ?? self
    }

    /// The same template with the column and the row fields exchanged (formats stay in place).
    func swappingColumnsAndRows() -> PathTemplate {
        guard !segments.joined().contains(where: { isField($0, .quadkey) }) else { return self }
        let row = usesTMSRows ? "{-y" : "{y"
        let swapped = text.replacingOccurrences(of: row, with: "\u{1}")
            .replacingOccurrences(of: "{x", with: row)
            .replacingOccurrences(of: "\u{1}", with: "{x")
        return (try? PathTemplate(swapped)) ?? self
    }

    /// The order a sorted walk of this layout yields: by zoom, column, row when the segments are
    /// exactly one unsplit decimal `{z}`, `{x}` and row field each.
    var walkOrder: TileOrder {
        guard segments.count == 3,
              segments[0].count == 1, case .field(.z, let zoom) = segments[0][0], zoom.isOrderedDecimal,
              segments[1].count == 1, case .field(.x, let column) = segments[1][0], column.isOrderedDecimal,
              case .field(let rowField, let row) = segments[2].first, row.isOrderedDecimal
        else { return .unordered }
        switch rowField {
        case .y: return .zoomColumnRow
        case .tmsY: return .zoomColumnTMSRow
        default: return .unordered
        }
    }

    /// The relative path of a tile.
    public func path(for coordinate: TileCoordinate, fileExtension: String) -> String {
        var bytes: [UInt8] = []
        appendPath(for: coordinate, fileExtension: fileExtension, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 relative path of a tile to `bytes` (no `String` built: writers call
    /// this once per tile with a buffer they reuse).
    func appendPath(for coordinate: TileCoordinate, fileExtension: String, to bytes: inout [UInt8]) {
        writeLiterals.withUnsafeBufferPointer { literals in
            for step in writeSteps {
                switch step {
                case .literal(let range): bytes.append(contentsOf: UnsafeBufferPointer(rebasing: literals[range]))
                case .field(let field, let format):
                    switch field {
                    case .z: Self.appendNumber(coordinate.z, format: format, to: &bytes)
                    case .x: Self.appendNumber(coordinate.x, format: format, to: &bytes)
                    case .y: Self.appendNumber(coordinate.y, format: format, to: &bytes)
                    case .tmsY: Self.appendNumber(coordinate.tmsY, format: format, to: &bytes)
                    case .quadkey: bytes.append(contentsOf: coordinate.quadkey.utf8)
                    case .ext: bytes.append(contentsOf: fileExtension.utf8)
                    }
                }
            }
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Appends a non-negative `value`'s digits, zero-padded to the width, or the folder's share
    /// of them when the field is split. Written in place: no buffer but `bytes`.
    private static func appendNumber(_ value: Int, format: FieldFormat, to bytes: inout [UInt8]) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(hexDigits.utf8Start[rest % format.radix])
            rest /= format.radix
        } while rest > 0
        while bytes.count - start < format.width { bytes.append(UInt8(ascii: "0")) }
        var low = start, high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
        guard format.groupCount > 1 else { return }
        let count = bytes.count - start
        let first = count - (format.groupCount - 1) * format.groupSize
        let kept = format.group == 0 ? 0..<first : (first + (format.group - 1) * format.groupSize)..<(first + format.group * format.groupSize)
        if kept.lowerBound > 0 {
            for offset in kept { bytes[start + offset - kept.lowerBound] = bytes[start + offset] }
        }
        bytes.removeLast(count - kept.count)
    }

    /// What matching captured, field by field; folder walks carry it down from folder to folder.
    struct Values {
        var z: Int?
        var x: Int?
        var y: Int?
        var tmsY: Int?
        var quadkey: [UInt8]?
        var fileExtension: String?
        /// A numeric field had more digits than fit.
        var overflow = false
        /// Fields (by `Field.bit`) of which only the first folders' digits were read yet.
        var partial: UInt8 = 0
        /// Significant digits read so far per split field (for the overflow check).
        var digits: [Field: Int] = [:]

        /// The zoom, once all its digits are known.
        var wholeZ: Int? { partial & Field.z.bit == 0 ? z : nil }
        /// The column, once all its digits are known.
        var wholeX: Int? { partial & Field.x.bit == 0 ? x : nil }
    }

    /// Matches one path segment at `depth` on top of what the folders above it captured; false
    /// when it does not fit. Used while walking.
    func capture(segment: some Collection<UInt8>, depth: Int, into values: inout Values) -> Bool {
        guard depth < segments.count else { return false }
        return Self.match(Array(segment), pieces: segments[depth], into: &values)
    }

    /// The tile at a relative path (`/`-separated), nil when the path does not fit the template
    /// or its numbers are out of range.
    public func coordinate(ofPath path: String) -> TileCoordinate? {
        if case .tile(let coordinate, _) = match(path) { return coordinate }
        return nil
    }

    /// Matches a whole relative path (`/`-separated, no leading `./`).
    func match(_ path: some StringProtocol) -> Match {
        var values = Values()
        var segmentIndex = 0
        var start = path.utf8.startIndex
        let utf8 = path.utf8
        while true {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
            guard segmentIndex < segments.count,
                  Self.match(Array(utf8[start..<end]), pieces: segments[segmentIndex], into: &values)
            else { return .notATile }
            segmentIndex += 1
            guard end != utf8.endIndex else { break }
            start = utf8.index(after: end)
        }
        guard segmentIndex == segments.count else { return .notATile }
        return tile(from: values, path: String(path))
    }

    /// Matches the file name of a path whose folders matched with the values `folders`
    /// (`capture(segment:depth:into:)` for each); `path` names the whole path in messages.
    func match(fileName: [UInt8], folders: Values, path: @autoclosure () -> String) -> Match {
        var values = folders
        guard let last = segments.last, Self.match(fileName, pieces: last, into: &values) else { return .notATile }
        return tile(from: values, path: path())
    }

    private func tile(from values: Values, path: @autoclosure () -> String) -> Match {
        if values.overflow { return .invalid("a number in '\(path())' is too large") }
        let fileExtension = values.fileExtension
        do {
            if let quadkey = values.quadkey {
                return .tile(try TileCoordinate(quadkey: String(decoding: quadkey, as: UTF8.self)), fileExtension: fileExtension)
            }
            guard let z = values.z, let x = values.x else { return .notATile }
            if let row = values.tmsY {
                return .tile(try TileCoordinate(z: z, x: x, tmsY: row), fileExtension: fileExtension)
            }
            guard let y = values.y else { return .notATile }
            return .tile(try TileCoordinate(z: z, x: x, y: y), fileExtension: fileExtension)
        } catch {
            return .invalid(error.description)
        }
    }

    private static func digitValue(_ byte: UInt8, radix: Int) -> Int? {
        switch byte {
        case 48...57: Int(byte - 48)
        case 97...102 where radix == 16: Int(byte - 87)
        case 65...70 where radix == 16: Int(byte - 55)
        default: nil
        }
    }

    private static func match(_ bytes: [UInt8], pieces: [Piece], into values: inout Values) -> Bool {
        var position = 0
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .literal(let literal):
                guard bytes.count - position >= literal.count,
                      bytes[position..<position + literal.count].elementsEqual(literal) else { return false }
                position += literal.count
            case .field(let field, let format):
                let start = position
                switch field {
                case .ext:
                    let stop: Int
                    if index + 1 < pieces.count, case .literal(let next) = pieces[index + 1] {
                        guard let found = firstIndex(of: next, in: bytes, from: position) else { return false }
                        stop = found
                    } else {
                        stop = bytes.count
                    }
                    guard stop > start, bytes[start..<stop].allSatisfy(isExtensionByte) else { return false }
                    position = stop
                    values.fileExtension = String(decoding: bytes[start..<stop], as: UTF8.self)
                case .quadkey:
                    while position < bytes.count, (48...51).contains(bytes[position]) { position += 1 }
                    values.quadkey = Array(bytes[start..<position])
                case .z, .x, .y, .tmsY:
                    guard readNumber(bytes, at: &position, field: field, format: format, into: &values) else { return false }
                }
            }
        }
        return position == bytes.count
    }

    /// Reads a numeric field's digits (a split field's later folders must hold exactly their
    /// share) and folds them into the value captured so far.
    private static func readNumber(_ bytes: [UInt8], at position: inout Int, field: Field, format: FieldFormat,
                                   into values: inout Values) -> Bool {
        let start = position
        var number = 0
        var significant = format.group > 0 ? values.digits[field] ?? 0 : 0
        var accumulated = 0
        if format.group > 0 {
            guard values.partial & field.bit != 0 else { return false }
            switch field {
            case .z: accumulated = values.z ?? 0
            case .x: accumulated = values.x ?? 0
            case .y: accumulated = values.y ?? 0
            default: accumulated = values.tmsY ?? 0
            }
        }
        while position < bytes.count, let digit = digitValue(bytes[position], radix: format.radix) {
            if format.group > 0, position - start == format.groupSize { break }
            if significant > 0 || digit > 0 || accumulated > 0 { significant += 1 }
            if significant <= DecimalText.maxDigits { number = number * format.radix + digit }
            position += 1
        }
        let count = position - start
        guard count > 0, format.group == 0 || count == format.groupSize else { return false }
        var value: Int? = nil
        if significant <= DecimalText.maxDigits {
            if format.group == 0 {
                value = number
            } else {
                var scale = 1
                for _ in 0..<format.groupSize { scale *= format.radix }
                value = accumulated * scale + number
            }
        } else {
            values.overflow = true
        }
        if format.isLastGroup {
            values.partial &= ~field.bit
            values.digits[field] = nil
        } else {
            values.partial |= field.bit
            values.digits[field] = significant
        }
        switch field {
        case .z: values.z = value ?? Int.max
        case .x: values.x = value ?? Int.max
        case .y: values.y = value ?? Int.max
        default: values.tmsY = value ?? Int.max
        }
        return true
    }

    private static func isExtensionByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private func isField(_ piece: Piece, _ field: Field) -> Bool {
        if case .field(field, _) = piece { return true }
        return false
    }

    public var description: String { text }
}

extension PathTemplate.FieldFormat {
    /// Decimal and unsplit, so that a walk's numeric name order is the value order.
    var isOrderedDecimal: Bool { radix == 10 && groupCount == 1 }
}
