import Foundation

/// Formats degrees with at most 6 decimals (about 0.1 m) and no trailing zeros.
enum DegreeText {
    static func format(_ value: Double) -> String {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        var text = String(format: "%.6f", rounded == 0 ? 0 : rounded)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
