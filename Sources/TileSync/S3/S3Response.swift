import Foundation

/// A server's answer: status, the headers TileSync reads (`keptHeaders`, lowercased names), body.
struct S3Response: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    /// The headers kept from an answer.
    static let keptHeaders = ["content-length", "content-type", "content-encoding", "cache-control", "etag", "content-range"]

    /// A header by lowercased name (one of `keptHeaders`).
    func header(_ name: String) -> String? { headers[name] }
}
