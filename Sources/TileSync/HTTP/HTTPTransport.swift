import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests through an `HTTPSender` and tries them again as an `HTTPRetryPolicy` says:
/// the caller judges each answer (an answer, or a failure that may be retried); timeouts and
/// dropped connections are retried as well. On Linux the sender is libcurl's multi interface
/// (`CurlSender`: about a tenth of URLSession's CPU per request there), `URLSessionSender` with
/// `TILESYNC_HTTP=urlsession` and on Apple platforms. Bodies arrive as sent, never decoded.
/// Thread-safe.
final class HTTPTransport: Sendable {
    let policy: HTTPRetryPolicy
    private let sender: any HTTPSender
    /// The HTTP version each host answered over and the connections opened to it (libcurl only).
    let protocols = HTTPHostProtocols()

    /// - Parameter connections: requests in flight at once.
    convenience init(policy: HTTPRetryPolicy, connections: Int) {
        self.init(policy: policy, settings: HTTPConnectionSettings(connections: connections))
    }

    /// - Parameter settings: connections, HTTP/2 streams and trusted certificates (libcurl; with
    ///   URLSession only the connections count).
    init(policy: HTTPRetryPolicy, settings: HTTPConnectionSettings) {
        self.policy = policy
        sender = Self.makeSender(settings: settings, timeout: policy.timeout, protocols: protocols)
    }

    private static func makeSender(settings: HTTPConnectionSettings, timeout: TimeInterval, protocols: HTTPHostProtocols) -> any HTTPSender {
        #if canImport(CTileSyncCurl)
        if ProcessInfo.processInfo.environment["TILESYNC_HTTP"] != "urlsession" {
            return CurlSender(settings: settings, timeout: timeout, protocols: protocols)
        }
        #endif
        return URLSessionSender(connections: settings.connections, timeout: timeout)
    }

    /// Sends a request in the background, again after a backoff while the outcome is a
    /// retryable failure and attempts are left; `completion` gets the last outcome.
    /// - Parameters:
    ///   - makeRequest: the request of each attempt (signed anew: signatures carry the time).
    ///   - bodyFile: a file streamed as the body of every attempt.
    ///   - maxBodyBytes: the longest answer body taken (a longer one is a failure not retried,
    ///     and libcurl stops receiving it there): bounds the memory a server can make a request
    ///     hold.
    ///   - judge: what an HTTP answer comes to.
    ///   - transportFailure: the failure for a request that got no answer (or an answer longer
    ///     than `maxBodyBytes`), from a reason in words and the `URLError` code when there is one.
    ///   - onRetry: called before each retry (counters).
    func start<Answer: Sendable, Failure: Error>(
        makeRequest: @escaping @Sendable () -> URLRequest,
        bodyFile: URL? = nil,
        maxBodyBytes: Int = HTTPTransport.defaultMaxBodyBytes,
        judge: @escaping @Sendable (HTTPURLResponse, Data) -> HTTPAttemptOutcome<Answer, Failure>,
        transportFailure: @escaping @Sendable (String, URLError.Code?) -> Failure,
        onRetry: @escaping @Sendable () -> Void = {},
        completion: @escaping @Sendable (Result<Answer, Failure>) -> Void
    ) {
        attempt(number: 1, makeRequest: makeRequest, bodyFile: bodyFile, maxBodyBytes: maxBodyBytes, judge: judge,
                transportFailure: transportFailure, onRetry: onRetry, completion: completion)
    }

    /// The longest answer body taken unless a request says otherwise: a tile, a TileJSON
    /// document, an object or a listing of object storage (64 MiB, as the largest tile a
    /// folder's file may hold).
    static let defaultMaxBodyBytes = FileBytes.maxTileSize

    private func attempt<Answer: Sendable, Failure: Error>(
        number: Int,
        makeRequest: @escaping @Sendable () -> URLRequest,
        bodyFile: URL?,
        maxBodyBytes: Int,
        judge: @escaping @Sendable (HTTPURLResponse, Data) -> HTTPAttemptOutcome<Answer, Failure>,
        transportFailure: @escaping @Sendable (String, URLError.Code?) -> Failure,
        onRetry: @escaping @Sendable () -> Void,
        completion: @escaping @Sendable (Result<Answer, Failure>) -> Void
    ) {
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { [self] data, response, error in
            let outcome: HTTPAttemptOutcome<Answer, Failure>
            if let error {
                let code = (error as? URLError)?.code
                let retryable = code.map { Self.retryableTransportErrors.contains($0) } ?? true
                let detail = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String
                outcome = .failure(transportFailure(code.map { Self.describe($0, detail: detail) } ?? error.localizedDescription, code),
                                   retryable: retryable)
            } else if let http = response as? HTTPURLResponse {
                outcome = judge(http, data ?? Data())
            } else {
                outcome = .failure(transportFailure("no HTTP answer", nil), retryable: true)
            }
            switch outcome {
            case .answer(let answer):
                completion(.success(answer))
            case .failure(let failure, let retryable, let asked):
                guard retryable, number < policy.attempts, (asked ?? 0) <= policy.longestRetryAfter else {
                    completion(.failure(failure))
                    return
                }
                onRetry()
                let delay = asked.map { max($0, policy.delay(after: number)) } ?? policy.delay(after: number)
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
                    attempt(number: number + 1, makeRequest: makeRequest, bodyFile: bodyFile, maxBodyBytes: maxBodyBytes, judge: judge,
                            transportFailure: transportFailure, onRetry: onRetry, completion: completion)
                }
            }
        }
        sender.send(makeRequest(), bodyFile: bodyFile, maxBodyBytes: maxBodyBytes, completion: handler)
    }

    /// Transport errors worth another attempt. `.unknown` is among them: FoundationNetworking
    /// reports some of curl's failures to send or receive on a live connection as -1 (seen once
    /// in a no-op sync of 20,000 objects on loopback, which then stopped).
    private static let retryableTransportErrors: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .dnsLookupFailed,
        .cannotFindHost, .badServerResponse, .cannotParseResponse, .resourceUnavailable, .zeroByteResource, .unknown,
    ]

    /// A transport error in words; `detail` (curl's own words, such as "transfer closed with 688
    /// bytes remaining to read") is added where the code alone says little.
    static func describe(_ code: URLError.Code, detail: String? = nil) -> String {
        switch code {
        case .timedOut: "the server did not answer in time"
        case .networkConnectionLost: "the connection was dropped" + (detail.map { " (\($0))" } ?? "")
        case .cannotConnectToHost: "cannot connect to the server"
        case .cannotFindHost, .dnsLookupFailed: "cannot find the server"
        case .notConnectedToInternet: "no network"
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
            "the server's certificate is not trusted" + (detail.map { " (\($0))" } ?? "")
                + "; a private certificate authority is trusted with --cacert FILE or SSL_CERT_FILE"
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            "the TLS connection failed" + (detail.map { " (\($0))" } ?? "")
        case .dataLengthExceedsMaximum: detail ?? "the answer is longer than this request takes"
        default: "the request failed (URLError \(code.rawValue)\(detail.map { ": " + $0 } ?? ""))"
        }
    }
}
