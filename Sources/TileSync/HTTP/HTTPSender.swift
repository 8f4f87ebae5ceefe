import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Carries HTTP exchanges for `HTTPTransport`, once each: the request (with a file streamed as
/// its body when given) out, and the answer's status, headers and body back as sent (no
/// content decoding), or a transport error as a `URLError`. Thread-safe.
protocol HTTPSender: Sendable {
    /// Sends a request in the background; `completion` runs once, on any thread.
    /// - Parameter maxBodyBytes: the longest answer body taken; a longer one fails with
    ///   `URLError(.dataLengthExceedsMaximum)` (libcurl stops receiving it at that length).
    func send(_ request: URLRequest, bodyFile: URL?, maxBodyBytes: Int, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void)
}

extension URLError {
    /// The failure of an answer whose body is longer than `limit` bytes.
    static func bodyTooLong(limit: Int) -> URLError {
        URLError(.dataLengthExceedsMaximum, userInfo: [NSLocalizedDescriptionKey: "the server sent more than \(limit) bytes, the most this request takes"])
    }
}
