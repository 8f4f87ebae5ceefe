import Foundation

/// A server's answer to a range request: its status (206 with the range, 200 with the whole
/// object when it ignores ranges, 404, 412 when `If-Match` failed, 416 past the end), the
/// bytes, and the headers that tell the object's size and version.
struct ByteRangeAnswer: Sendable {
    let status: Int
    let body: Data
    /// `Content-Range` (`bytes 0-16383/734281`, `bytes */734281`).
    let contentRange: String?
    /// `Content-Length`, when sent.
    let contentLength: Int?
    /// The object's `ETag`, when sent.
    let etag: String?

    /// The statuses that are answers rather than failures.
    static let statuses: Set<Int> = [200, 206, 404, 412, 416]

    /// The object's whole size from `Content-Range` (`bytes a-b/N` or `bytes */N`), nil when
    /// absent or `*`.
    var totalSize: UInt64? {
        guard let contentRange, let slash = contentRange.lastIndex(of: "/") else { return nil }
        return HTTPDigits.value(contentRange[contentRange.index(after: slash)...].trimmingCharacters(in: .whitespaces))
    }

    /// True when the server sent the whole object instead of a range (200 without
    /// `Content-Range`). Some servers say 200 and still send the range with its `Content-Range`.
    var isWholeObject: Bool { status == 200 && contentRange == nil }

    /// The first byte the answer holds, from `Content-Range` (`bytes a-b/N`); 0 for the whole
    /// object; nil when the header says no first byte (`bytes */N`, or not that shape at all).
    var firstByte: UInt64? {
        if isWholeObject { return 0 }
        guard let contentRange, let space = contentRange.firstIndex(of: " ") else { return nil }
        let range = contentRange[contentRange.index(after: space)...]
        guard let dash = range.firstIndex(of: "-") else { return nil }
        return HTTPDigits.value(range[..<dash])
    }
}
