import Foundation

/// The segments of a request path, each percent-decoded. A path is refused (400) when an
/// encoding is malformed or decodes to a slash, a backslash, a NUL or another control
/// character, or when a segment is `.` or `..`: no route can then reach outside what it names.
enum RequestPath {
    struct Problem: Error {
        let message: String
    }

    /// `/` gives no segments; `/a/b/` gives `a`, `b` and an empty last segment.
    static func segments(of path: String) -> Result<[String], Problem> {
        let body = path.dropFirst()
        guard !body.isEmpty else { return .success([]) }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        var decoded: [String] = []
        decoded.reserveCapacity(parts.count)
        for raw in parts {
            guard let segment = decode(raw) else { return .failure(Problem(message: "the path has a malformed or forbidden percent-encoding")) }
            if segment == "." || segment == ".." { return .failure(Problem(message: "the path has a . or .. segment")) }
            decoded.append(segment)
        }
        return .success(decoded)
    }

    private static func decode(_ raw: Substring) -> String? {
        let utf8 = raw.utf8
        guard utf8.contains(UInt8(ascii: "%")) else {
            return utf8.allSatisfy(isAllowed) ? String(raw) : nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        guard bytes.allSatisfy(isAllowed) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Not a control character, a slash or a backslash.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "\\")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
