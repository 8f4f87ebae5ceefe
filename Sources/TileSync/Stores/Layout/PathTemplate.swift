import Foundation

/// Where tiles live inside a folder or archive, e.g. `{z}/{x}/{y}.{ext}`.
///
/// Fields: `{z}`, `{x}`, `{y}` (XYZ row), `{-y}` (TMS row), `{q}` (quadkey, which also gives the
/// zoom), `{ext}` (file extension). A numeric field may be zero-padded to a width: `{x:4}` writes
/// `0012`; reading accepts any number of leading zeros. Separate two fields by literal text.
public struct PathTemplate: Hashable, Sendable, CustomStringConvertible {
    /// `{z}/{x}/{y}.{ext}`, the layout of mb-util, tilelive and web servers.
    public static let xyz = PathTemplate(
        validated: "{z}/{x}/{y}.{ext}",
        segments: [[.field(.z, width: 0)], [.field(.x, width: 0)],
                   [.field(.y, width: 0), .literal([UInt8(ascii: ".")]), .field(.ext, width: 0)]])
    /// `{z}/{x}/{-y}.{ext}`: the same tree with TMS rows.
    public static let tms = PathTemplate(
        validated: "{z}/{x}/{-y}.{ext}",
        segments: [[.field(.z, width: 0)], [.field(.x, width: 0)],
                   [.field(.tmsY, width: 0), .literal([UInt8(ascii: ".")]), .field(.ext, width: 0)]])

    enum Field: String, Hashable, Sendable {
        case z, x, y, tmsY = "-y", quadkey = "q", ext
    }

    enum Piece: Hashable, Sendable {
        case literal([UInt8])
        case field(Field, width: Int)
    }

    /// The result of matching a path against the template.
    enum Match: Equatable {
        /// The path does not have the template's shape.
        case notATile
        case tile(TileCoordinate, fileExtension: String?)
        /// The shape fits but a value is out of range or too large.
        case invalid(String)
    }

    /// The template as written.
    public let text: String
    let segments: [[Piece]]

    /// Parses a template.
    /// - Throws: `PathTemplateError` when it is empty, absolute, has `..` or empty segments,
    ///   unknown or repeated fields, adjacent fields, or lacks a zoom, column or row.
    public init(_ text: String) throws(PathTemplateError) {
        self.text = text
        guard !text.isEmpty else { throw PathTemplateError(template: text, reason: "is empty") }
        guard !text.hasPrefix("/") else { throw PathTemplateError(template: text, reason: "must be relative") }
        var segments: [[Piece]] = []
        var seen: Set<Field> = []
        for segment in text.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty, segment != ".", segment != ".." else {
                throw PathTemplateError(template: text, reason: "has an empty, '.' or '..' path segment")
            }
            var pieces: [Piece] = []
            var rest = Substring(segment)
            while !rest.isEmpty {
                if rest.first == "{" {
                    guard let close = rest.firstIndex(of: "}") else {
                        throw PathTemplateError(template: text, reason: "has an unclosed '{'")
                    }
                    let body = rest[rest.index(after: rest.startIndex)..<close]
                    let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let field = Field(rawValue: String(parts[0])) else {
                        throw PathTemplateError(template: text, reason: "has an unknown field {\(body)} (use {z} {x} {y} {-y} {q} {ext})")
                    }
                    var width = 0
                    if parts.count == 2 {
                        guard let value = DecimalText.integer(parts[1]), (1...10).contains(value),
                              field != .ext, field != .quadkey else {
                            throw PathTemplateError(template: text, reason: "has a bad width in {\(body)} (e.g. {x:4})")
                        }
                        width = value
                    }
                    guard seen.insert(field).inserted else {
                        throw PathTemplateError(template: text, reason: "repeats {\(field.rawValue)}")
                    }
                    if case .field = pieces.last {
                        throw PathTemplateError(template: text, reason: "needs text between two fields")
                    }
                    pieces.append(.field(field, width: width))
                    rest = rest[rest.index(after: close)...]
                } else {
                    let end = rest.firstIndex(of: "{") ?? rest.endIndex
                    let literal = rest[..<end]
                    guard !literal.contains("}") else { throw PathTemplateError(template: text, reason: "has a stray '}'") }
                    pieces.append(.literal(Array(literal.utf8)))
                    rest = rest[end...]
                }
            }
            if pieces == [.field(.quadkey, width: 0)] {
                throw PathTemplateError(template: text, reason: "has a segment of only {q}, which is empty at zoom 0 (write e.g. {q}.{ext})")
            }
            segments.append(pieces)
        }
        let hasRow = seen.contains(.y) || seen.contains(.tmsY)
        guard seen.contains(.quadkey) || (seen.contains(.z) && seen.contains(.x) && hasRow),
              !(seen.contains(.y) && seen.contains(.tmsY)),
              !(seen.contains(.quadkey) && (seen.contains(.x) || hasRow))
        else {
            throw PathTemplateError(template: text, reason: "needs {z}, {x} and one of {y} or {-y}, or {q}")
        }
        self.segments = segments
    }

    private init(validated text: String, segments: [[Piece]]) {
        self.text = text
        self.segments = segments
    }

    /// True when rows are TMS (`{-y}`).
    public var usesTMSRows: Bool { segments.joined().contains { isField($0, .tmsY) } }

    /// True when the template has an `{ext}` field.
    public var hasExtension: Bool { segments.joined().contains { isField($0, .ext) } }

    /// The same template with XYZ rows turned into TMS rows (`--scheme tms`).
    public func withTMSRows() -> PathTemplate {
        (try? PathTemplate(text.replacingOccurrences(of: "{y", with: "{-y"))) ?? self
    }

    /// The order a sorted walk of this layout yields: by zoom, column, row when the segments are
    /// exactly one `{z}`, `{x}` and row field each.
    var walkOrder: TileOrder {
        guard segments.count == 3,
              segments[0].count == 1, isField(segments[0][0], .z),
              segments[1].count == 1, isField(segments[1][0], .x),
              case .field(let rowField, _) = segments[2].first
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
        for (index, segment) in segments.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "/")) }
            for piece in segment {
                switch piece {
                case .literal(let literal): bytes.append(contentsOf: literal)
                case .field(let field, let width):
                    switch field {
                    case .z: Self.appendDecimal(coordinate.z, width: width, to: &bytes)
                    case .x: Self.appendDecimal(coordinate.x, width: width, to: &bytes)
                    case .y: Self.appendDecimal(coordinate.y, width: width, to: &bytes)
                    case .tmsY: Self.appendDecimal(coordinate.tmsY, width: width, to: &bytes)
                    case .quadkey: bytes.append(contentsOf: coordinate.quadkey.utf8)
                    case .ext: bytes.append(contentsOf: fileExtension.utf8)
                    }
                }
            }
        }
    }

    /// Appends the decimal digits of a non-negative `value`, zero-padded to `width`.
    private static func appendDecimal(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
        let start = bytes.count
        for _ in 0..<digits { bytes.append(UInt8(ascii: "0")) }
        rest = value
        for index in stride(from: start + digits - 1, through: start, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// Values captured from the leading segments of a path, used to prune folder walks.
    struct Captured {
        var z: Int?
        var x: Int?
    }

    /// What matching a path captured, field by field.
    struct Values {
        var z: Int?
        var x: Int?
        var y: Int?
        var tmsY: Int?
        var quadkey: [UInt8]?
        var fileExtension: String?
        /// A numeric field had more digits than fit.
        var overflow = false
    }

    /// Matches one path segment at `depth`; false when it does not fit. Used while walking.
    func capture(segment: some Collection<UInt8>, depth: Int, into captured: inout Captured) -> Bool {
        guard depth < segments.count else { return false }
        var values = Values()
        guard Self.match(Array(segment), pieces: segments[depth], into: &values) else { return false }
        if let z = values.z { captured.z = z }
        if let x = values.x { captured.x = x }
        return true
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

    /// True when the folder segments hold nothing but `{z}`, `{x}` and literal text, so that the
    /// values `capture(segment:depth:into:)` kept on the way down and a file's name give its
    /// coordinate (`match(fileName:folders:path:)`).
    var foldersHoldOnlyZoomAndColumn: Bool {
        segments.dropLast().joined().allSatisfy { piece in
            switch piece {
            case .literal: true
            case .field(let field, _): field == .z || field == .x
            }
        }
    }

    /// Matches the file name of a path whose folders matched with the values `folders` (only
    /// when `foldersHoldOnlyZoomAndColumn`); `path` names the whole path in messages.
    func match(fileName: [UInt8], folders: Captured, path: @autoclosure () -> String) -> Match {
        var values = Values()
        values.z = folders.z
        values.x = folders.x
        if folders.z == Int.max || folders.x == Int.max { values.overflow = true }
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

    private static func match(_ bytes: [UInt8], pieces: [Piece], into values: inout Values) -> Bool {
        var position = 0
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .literal(let literal):
                guard bytes.count - position >= literal.count,
                      bytes[position..<position + literal.count].elementsEqual(literal) else { return false }
                position += literal.count
            case .field(let field, _):
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
                    var number = 0
                    while position < bytes.count, (48...57).contains(bytes[position]) {
                        if position - start < DecimalText.maxDigits { number = number * 10 + Int(bytes[position] - 48) }
                        position += 1
                    }
                    guard position > start else { return false }
                    let value: Int? = position - start <= DecimalText.maxDigits ? number : nil
                    if value == nil { values.overflow = true }
                    switch field {
                    case .z: values.z = value ?? Int.max
                    case .x: values.x = value ?? Int.max
                    case .y: values.y = value ?? Int.max
                    default: values.tmsY = value ?? Int.max
                    }
                }
            }
        }
        return position == bytes.count
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
