import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Range requests to a plain `http://` or `https://` URL (a PMTiles archive on a web server or
/// a CDN), retried as the policy says on 5xx, 429, timeouts and dropped connections. Over HTTP/2
/// the `transfers` requests in flight share one connection (each waits to share it rather than
/// open another); over HTTP/1.1 each takes a connection of its own.
final class HTTPRangeFetcher: ByteRangeFetching {
    let url: URL
    let transfers: Int
    private let transport: HTTPTransport

    /// The policy for archives on web servers: 6 attempts, backoff from 0.5 s to 10 s, 30 s per attempt.
    static let defaultPolicy = HTTPRetryPolicy(attempts: 6, initialBackoff: 0.5, maximumBackoff: 10, timeout: 30)

    init(url: URL, transfers: Int, policy: HTTPRetryPolicy = HTTPRangeFetcher.defaultPolicy) {
        self.url = url
        self.transfers = transfers
        transport = HTTPTransport(policy: policy, settings: HTTPConnectionSettings(connections: transfers, streams: transfers))
    }

    var objectName: String { url.absoluteString }

    func fetch(_ range: Range<UInt64>, ifMatch etag: String?,
               completion: @escaping @Sendable (Result<ByteRangeAnswer, HTTPError>) -> Void) {
        var request = URLRequest(url: url)
        request.setValue("bytes=\(range.lowerBound)-\(range.upperBound - 1)", forHTTPHeaderField: "Range")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-Match") }
        let prepared = request
        transport.start(makeRequest: { prepared }, maxBodyBytes: Self.maxBodyBytes(for: range), judge: Self.judge,
                        transportFailure: Self.transportFailure, completion: completion)
    }

    /// The longest answer a range request takes: the range, or 64 KiB for a short range (an
    /// error page). A server that ignores `Range` and sends a whole large object is stopped
    /// there instead of being held in memory.
    static func maxBodyBytes(for range: Range<UInt64>) -> Int {
        max(Int(clamping: range.upperBound - range.lowerBound), 64 << 10)
    }

    /// A failure without an answer; an answer longer than the range asked for says what to do.
    static func transportFailure(_ message: String, code: URLError.Code?) -> HTTPError {
        HTTPError(message: message, hint: code == .dataLengthExceedsMaximum ? "serve the archive from a server that answers HTTP Range requests" : nil)
    }

    private static func judge(_ http: HTTPURLResponse, body: Data) -> HTTPAttemptOutcome<ByteRangeAnswer, HTTPError> {
        let status = http.statusCode
        guard ByteRangeAnswer.statuses.contains(status) else {
            let retryable = status >= 500 || status == 429 || status == 408
            let hint = status == 401 || status == 403 ? "the server refuses access to the archive" : nil
            return .failure(HTTPError(status: status, message: HTTPURLResponse.localizedString(forStatusCode: status), hint: hint),
                            retryable: retryable)
        }
        return .answer(ByteRangeAnswer(status: status, body: body, contentRange: http.value(forHTTPHeaderField: "Content-Range"),
                                       contentLength: http.value(forHTTPHeaderField: "Content-Length").flatMap { Int($0) },
                                       etag: http.value(forHTTPHeaderField: "ETag")))
    }
}
