import Foundation
import TileSync

/// Builds JSON output with keys in a fixed order (scripts and tests compare it).
enum JSONText {
    indirect enum Value {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)
        case null
        case array([Value])
        case object([(String, Value)])
    }

    static func render(_ value: Value) -> String {
        switch value {
        case .string(let string): return quoted(string)
        case .int(let int): return String(int)
        case .double(let double): return double.isFinite ? String(format: "%.6g", double) : "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(render).joined(separator: ",") + "]"
        case .object(let pairs): return "{" + pairs.map { quoted($0.0) + ":" + render($0.1) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ string: String) -> String { MetadataJSON.quoted(string) }
}
