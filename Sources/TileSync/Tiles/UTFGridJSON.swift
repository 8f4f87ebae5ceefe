import Foundation

/// The one JSON form every store's UTFGrids are compared and written in (`JSONWriter`'s canonical style): an
/// object with `grid`, `keys` and a `data` object holding each key's properties, members sorted.
/// MBTiles keeps `data` apart (`grid_data` rows) and the rest zlib-compressed (`grids.grid`);
/// folders and tars keep the whole object, wrapped in a JSONP callback as mb-util writes it.
enum UTFGridJSON {
    /// The largest grid document or decompressed grid accepted (64 MiB).
    static let maxSize = FileBytes.maxTileSize

    /// The canonical form of a `.grid.json` document: plain JSON or `name(...)` / `name(...);`.
    /// - Throws: `UTFGrid.FormatError` when it is not a JSON object with `grid` and `keys` arrays
    ///   (and, when present, a `data` object).
    static func canonical(document: some Collection<UInt8>) throws(UTFGrid.FormatError) -> Data {
        let members = try gridMembers(parse(unwrapped(Array(document))))
        var data: [(key: String, value: JSONValue)] = []
        switch members.last(where: { $0.key == "data" })?.value {
        case .object(let values)?: data = values
        case .null?, nil: break
        default: throw UTFGrid.FormatError(reason: "its data is not a JSON object")
        }
        return assemble(members, data: data)
    }

    /// The canonical form of an MBTiles grid: the decompressed `grids.grid` object and the
    /// `grid_data` rows of its coordinate (key name, key JSON), which replace any `data` member.
    /// - Throws: `UTFGrid.FormatError` when the grid is not a JSON object with `grid` and `keys`,
    ///   or a key's JSON is not JSON.
    static func canonical(grid: [UInt8], data: [(key: String, json: String)]) throws(UTFGrid.FormatError) -> Data {
        let members = try gridMembers(parse(grid))
        var values: [(key: String, value: JSONValue)] = []
        for row in data {
            do {
                values.append((row.key, try parse(Array(row.json.utf8))))
            } catch {
                throw UTFGrid.FormatError(reason: "the key_json of key '\(row.key)' is \(error.reason)")
            }
        }
        return assemble(members, data: values)
    }

    /// A canonical grid split for MBTiles: the object without `data` (to be compressed into
    /// `grids.grid`) and each data key with its JSON (`grid_data` rows), in key order.
    static func split(_ json: Data) -> (grid: Data, data: [(key: String, json: String)]) {
        guard case .object(let members)? = try? parse(Array(json)) else { return (json, []) }
        var data: [(key: String, json: String)] = []
        if case .object(let values)? = members.last(where: { $0.key == "data" })?.value {
            data = values.map { ($0.key, JSONWriter.text($0.value, style: .canonical)) }
        }
        return (Data(JSONWriter.bytes(.object(members.filter { $0.key != "data" }), style: .canonical)), data)
    }

    /// A document for a folder or tar: `callback(json);`, or the JSON alone for an empty callback.
    static func document(_ json: Data, callback: String) -> Data {
        guard !callback.isEmpty else { return json }
        return Data(callback.utf8) + Data("(".utf8) + json + Data(");".utf8)
    }

    /// One JSON value, refused as `not JSON: REASON at byte N`.
    private static func parse(_ bytes: [UInt8]) throws(UTFGrid.FormatError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw UTFGrid.FormatError(reason: "not JSON: \(error.description)")
        }
    }

    /// The members of a grid object, which must have `grid` and `keys` arrays.
    private static func gridMembers(_ value: JSONValue) throws(UTFGrid.FormatError) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = value else { throw UTFGrid.FormatError(reason: "not a JSON object") }
        for key in ["grid", "keys"] {
            guard case .array? = members.last(where: { $0.key == key })?.value else {
                throw UTFGrid.FormatError(reason: "has no '\(key)' array")
            }
        }
        return members
    }

    private static func assemble(_ members: [(key: String, value: JSONValue)],
                                 data: [(key: String, value: JSONValue)]) -> Data {
        Data(JSONWriter.bytes(.object(members.filter { $0.key != "data" } + [("data", .object(data))]), style: .canonical))
    }

    /// The JSON inside a JSONP callback (`name(...)` with an optional `;`), or the bytes as they are.
    private static func unwrapped(_ bytes: [UInt8]) throws(UTFGrid.FormatError) -> [UInt8] {
        func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        if start < end, bytes[start] == UInt8(ascii: "{") { return Array(bytes[start..<end]) }
        guard let open = bytes[start..<end].firstIndex(of: UInt8(ascii: "(")), open > start,
              bytes[start..<open].allSatisfy(isIdentifierByte) else {
            throw UTFGrid.FormatError(reason: "not a JSON object or a callback(...) around one")
        }
        if end > open + 1, bytes[end - 1] == UInt8(ascii: ";") { end -= 1 }
        while end > open + 1, isSpace(bytes[end - 1]) { end -= 1 }
        guard end > open + 1, bytes[end - 1] == UInt8(ascii: ")") else {
            throw UTFGrid.FormatError(reason: "the callback '\(String(decoding: bytes[start..<open], as: UTF8.self))(' is not closed")
        }
        return Array(bytes[(open + 1)..<(end - 1)])
    }

    /// What may come before the `(` of a callback: mb-util's import accepts word characters,
    /// spaces and `= + , - . /` (so `var x = grid(` too); `$` is JavaScript's.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            || Array("_$=+,-./ \t\r\n".utf8).contains(byte)
    }
}
