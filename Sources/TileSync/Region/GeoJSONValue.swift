import Foundation

/// Any JSON value, decoded with `JSONDecoder` so that numbers, booleans and nulls stay apart
/// (what a GeoJSON reader must tell from each other).
indirect enum GeoJSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([GeoJSONValue])
    case object([String: GeoJSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([GeoJSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: GeoJSONValue].self))
        }
    }

    /// The member `key` of an object, nil otherwise.
    subscript(key: String) -> GeoJSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// A short name of the value's JSON type, for messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
