import Foundation
import TileSync

extension JSONValue {
    /// A measured figure (seconds, metres) to six significant digits, as the `--json`
    /// summaries print it; null when it is not finite.
    static func figure(_ value: Double) -> JSONValue {
        value.isFinite ? .number(String(format: "%.6g", value)) : .null
    }
}
