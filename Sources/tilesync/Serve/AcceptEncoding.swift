import Foundation

/// A request's `Accept-Encoding` (RFC 9110 12.5.3): which content codings the client takes.
/// Without the header every coding is acceptable; an empty one takes none but identity; a
/// coding is acceptable when it is listed with a weight above 0, or `*` is and the coding is
/// not listed. Names are case-insensitive and `x-gzip` is `gzip`; a weight that does not parse
/// counts as 0.
struct AcceptEncoding {
    /// The listed codings (lowercased) with their weights in thousandths; nil without the header.
    private let weights: [(coding: Substring, weight: Int)]?

    /// - Parameter header: the header's value, nil when the request has none.
    init(_ header: String?) {
        guard let header else {
            weights = nil
            return
        }
        weights = header.lowercased().split(separator: ",").compactMap { element in
            let parts = element.split(separator: ";", omittingEmptySubsequences: false)
            let coding = parts[0].trimmingCharacters(in: .whitespaces)[...]
            guard !coding.isEmpty else { return nil }
            var weight = 1000
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0] == "q" { weight = Self.weight(pair[1]) ?? 0 }
            }
            return (coding == "x-gzip" ? "gzip" : coding, weight)
        }
    }

    /// True when a response in `coding` (`gzip`, `deflate`, `br`, `zstd`) is acceptable.
    func accepts(_ coding: String) -> Bool {
        guard let weights else { return true }
        let name = coding.lowercased()
        let listed = weights.filter { $0.coding == name }
        if !listed.isEmpty { return listed.contains { $0.weight > 0 } }
        return weights.contains { $0.coding == "*" && $0.weight > 0 }
    }

    /// A qvalue (`0`, `0.5`, `1.000`) in thousandths; nil when it does not parse or is above 1.
    private static func weight(_ text: String) -> Int? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, whole == "0" || whole == "1" else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        fraction += String(repeating: "0", count: 3 - fraction.count)
        guard let thousandths = Int(fraction) else { return nil }
        let value = (whole == "1" ? 1000 : 0) + thousandths
        return value <= 1000 ? value : nil
    }
}
