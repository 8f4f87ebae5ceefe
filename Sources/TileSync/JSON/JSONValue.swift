/// A JSON value (RFC 8259) as TileSync reads and writes it everywhere: metadata documents,
/// TileJSON, GeoJSON regions, UTFGrids, merged `vector_layers`, the tool's `--json` output.
///
/// Object members keep their document order (and repeated keys, which lookups resolve to the
/// last one); numbers keep the text they were written with, so a value read and written again
/// keeps its digits. Parse with `JSONParser`, write with `JSONWriter`.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as its JSON text (`12`, `-0.5`, `1e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// The members in document order.
    case object([(key: String, value: JSONValue)])

    /// An integer number.
    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A number for `value`: integral values below 2^53 without a fraction (`3`, not `3.0`),
    /// others in the shortest form that reads back the same; null for infinities and NaN,
    /// which JSON cannot hold.
    public static func double(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return .number(String(Int64(value))) }
        return .number(String(describing: value))
    }

    /// The value of member `key` of an object (the last when the key repeats); nil for a
    /// missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The text of a string, nil otherwise.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A number's value as a `Double`, nil for other values.
    public var double: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// A number's value when it is a whole number that fits an `Int` (`3`, `3.0`, `3e0`), nil
    /// otherwise.
    public var int: Int? {
        guard case .number(let text) = self else { return nil }
        if let exact = Int(text) { return exact }
        return Double(text).flatMap { Int(exactly: $0) }
    }

    /// The value of a boolean, nil otherwise.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements of an array, nil otherwise.
    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members of an object in document order, nil otherwise.
    public var members: [(key: String, value: JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A short name of the value's JSON type for messages (`a string`, `an object`).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// This object with member `key` set to `value`, where the key first stands (later repeats
    /// dropped) or appended; nil removes every member named `key`. Other values are returned as
    /// they are.
    public func setting(_ key: String, to value: JSONValue?) -> JSONValue {
        guard case .object(let members) = self else { return self }
        var result: [(key: String, value: JSONValue)] = []
        var placed = false
        for member in members {
            if member.key != key {
                result.append(member)
            } else if let value, !placed {
                result.append((key, value))
                placed = true
            }
        }
        if let value, !placed { result.append((key, value)) }
        return .object(result)
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}
