import Foundation

/// A `Range: bytes=...` request header for one range (RFC 9110 14.1.2): `first-last`,
/// `first-` or `-suffixLength`. Several ranges, other units or a malformed value are not
/// understood, and the whole body is sent instead (as the RFC allows).
enum ByteRangeRequest {
    /// What a range asks of a body of `size` bytes.
    enum Answer: Equatable {
        /// The bytes `offset ..< offset + length`.
        case partial(offset: UInt64, length: UInt64)
        /// No byte of the body is in the range (416).
        case unsatisfiable
        /// Send the whole body.
        case whole
    }

    static func answer(_ header: String, size: UInt64) -> Answer {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(",") else { return .whole }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash], lastText = spec[spec.index(after: dash)...]
        func number(_ text: Substring) -> UInt64? {
            guard !text.isEmpty, text.count <= 19, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return UInt64(text)
        }
        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            let length = min(suffix, size)
            return .partial(offset: size - length, length: length)
        }
        guard let first = number(firstText) else { return .whole }
        guard first < size else { return .unsatisfiable }
        if lastText.isEmpty { return .partial(offset: first, length: size - first) }
        guard let last = number(lastText), last >= first else { return .whole }
        return .partial(offset: first, length: min(last, size - 1) - first + 1)
    }
}
