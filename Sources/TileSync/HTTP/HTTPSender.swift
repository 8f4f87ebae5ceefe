import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Carries HTTP exchanges for `HTTPTransport`, once each: the request (with a file streamed as
/// its body when given) out, and the answer's status, headers and body back as sent (no
/// content decoding), or a transport error as a `URLError`. Thread-safe.
protocol HTTPSender: Sendable {
    /// Sends a request in the background; `completion` runs once, on any thread.
    func send(_ request: URLRequest, bodyFile: URL?, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void)
}
