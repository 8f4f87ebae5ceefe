import Foundation

/// One S3 operation on a bucket: method, object key (nil for the bucket itself), query items,
/// headers to send and sign, body (in memory, or a file streamed from disk).
struct S3Request: Sendable {
    var method: String
    var key: String?
    var query: [(String, String)]
    var headers: [String: String]
    var body: Data
    /// A file sent as the body instead of `body`, with its SHA-256 (lowercase hex).
    var bodyFile: (url: URL, sha256: String)?
    /// The longest answer body taken; nil for `HTTPTransport.defaultMaxBodyBytes`.
    var maxBodyBytes: Int?

    init(_ method: String, key: String? = nil, query: [(String, String)] = [], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.key = key
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// What counters call it: the method, or `LIST` and `DELETE` for listings and batch deletes.
    var operation: String {
        if method == "GET" && key == nil { return "LIST" }
        if method == "POST" && query.contains(where: { $0.0 == "delete" }) { return "DELETE" }
        return method
    }

    /// What messages name: `object KEY`, `listing of PREFIX`, `batch delete of N keys`.
    var item: String {
        if let key { return "object \(key)" }
        switch operation {
        case "LIST": return "listing of " + (query.first { $0.0 == "prefix" }?.1 ?? "")
        case "DELETE": return "batch delete"
        default: return "bucket"
        }
    }
}
