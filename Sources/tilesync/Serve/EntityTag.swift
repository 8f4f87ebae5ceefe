import Foundation

/// HTTP entity tags: a tile's is its MD5 in quotes, and `If-None-Match` is matched the weak
/// way (RFC 9110 13.1.2: `W/` ignored, `*` matches anything).
enum EntityTag {
    /// `"<32 hex digits>"`.
    static func quoted(_ value: String) -> String { "\"\(value)\"" }

    /// True when an `If-None-Match` value lists `tag` (a quoted tag) or is `*`.
    static func ifNoneMatch(_ header: String, matches tag: String) -> Bool {
        for item in header.split(separator: ",") {
            var candidate = item.trimmingCharacters(in: .whitespaces)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            if candidate == tag { return true }
        }
        return false
    }
}
