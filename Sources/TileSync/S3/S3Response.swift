import Foundation

/// A server's answer: status, headers with lowercased names, body.
struct S3Response: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    /// A header by lowercased name.
    func header(_ name: String) -> String? { headers[name] }
}
