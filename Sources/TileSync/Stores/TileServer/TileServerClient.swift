import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests to a tile server through `HTTPTransport`, politely: `connections` connections,
/// over HTTP/2 one carrying up to `streams` requests (the caller's window, `requestsInFlight`),
/// paced to the rate, with TileSync's User-Agent and the user's headers.
/// 429 and 503 wait as `Retry-After` says, other 5xx and dropped connections are retried with
/// backoff, 401 and 403 stop at once; 404 and 204 mean no tile. With validators of an earlier
/// answer the request is conditional (`If-None-Match`, `If-Modified-Since`), and 304 means the
/// copy is current. Header values never appear in an error.
final class TileServerClient: Sendable {
    let options: TileServerOptions
    private let transport: HTTPTransport
    private let pacer: TileRequestPacer?

    /// 6 attempts, backoff from 1 s to 30 s, 30 s per attempt, `Retry-After` up to 120 s.
    static let policy = HTTPRetryPolicy(attempts: 6, initialBackoff: 1, maximumBackoff: 30, timeout: 30)

    init(options: TileServerOptions, policy: HTTPRetryPolicy = TileServerClient.policy) {
        self.options = options
        transport = HTTPTransport(policy: policy, settings: options.connectionSettings)
        pacer = options.requestsPerSecond.map(TileRequestPacer.init)
    }

    /// Requests to keep in flight: `streams` once the server answered over HTTP/2, else two per
    /// connection (one on the wire, one waiting in curl for it).
    var requestsInFlight: Int {
        transport.protocols.multiplexes ? options.streams : options.connections * 2
    }

    /// One line per host: the HTTP version it answered over and the connections opened to it.
    var protocolNotes: [String] {
        transport.protocols.all.sorted { $0.key < $1.key }.map { host, entry in
            let connections = "\(entry.connections) connection\(entry.connections == 1 ? "" : "s")"
            let sharing = entry.version == "HTTP/1.1" || entry.version == "HTTP/1.0"
                ? "one request at a time on each" : "up to \(options.streams) requests at once on one"
            return "\(host) answered over \(entry.version): \(connections) opened, \(sharing)"
        }
    }

    /// Asks for one tile (or a document) in the background; conditionally when `ifChanged`
    /// holds validators.
    func fetch(_ url: URL, ifChanged: TileServerValidators? = nil,
               completion: @escaping @Sendable (Result<TileServerAnswer, HTTPError>) -> Void) {
        pacer?.wait()
        var request = URLRequest(url: url)
        request.setValue(options.userAgent, forHTTPHeaderField: "User-Agent")
        for header in options.headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        if let etag = ifChanged?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = ifChanged?.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        let prepared = request
        transport.start(makeRequest: { prepared }, judge: Self.judge, transportFailure: { message, _ in HTTPError(message: message) },
                        completion: completion)
    }

    /// Asks for one URL and waits for the answer.
    /// - Throws: `HTTPError` when the request failed for good.
    func answer(_ url: URL, ifChanged: TileServerValidators? = nil) throws(HTTPError) -> TileServerAnswer {
        let done = DispatchSemaphore(value: 0)
        let result = LockedResult()
        fetch(url, ifChanged: ifChanged) { answer in
            result.set(answer)
            done.signal()
        }
        done.wait()
        switch result.get() {
        case .success(let answer): return answer
        case .failure(let error): throw error
        case nil: throw HTTPError(message: "no answer")
        }
    }

    /// Asks for a document and waits for it.
    /// - Throws: `HTTPError`; a 404 or 204 is an error here.
    func document(_ url: URL) throws(HTTPError) -> Data {
        switch try answer(url) {
        case .tile(let data, _): return data
        case .noTile(let status, _):
            throw HTTPError(status: status, message: HTTPURLResponse.localizedString(forStatusCode: status))
        case .notModified: throw HTTPError(status: 304, message: "not modified, though nothing was asked conditionally")
        }
    }

    static func judge(_ http: HTTPURLResponse, body: Data) -> HTTPAttemptOutcome<TileServerAnswer, HTTPError> {
        let status = http.statusCode
        let words = HTTPURLResponse.localizedString(forStatusCode: status)
        let validators = TileServerValidators(http, receivedAt: Date())
        switch status {
        case 200, 203:
            guard !body.isEmpty else { return .answer(.noTile(status: status, validators)) }
            return .answer(.tile(restoredEncoding(body, contentEncoding: http.value(forHTTPHeaderField: "Content-Encoding")), validators))
        case 204, 404, 410:
            return .answer(.noTile(status: status, validators))
        case 304:
            return .answer(.notModified(validators))
        case 401, 403:
            return .failure(HTTPError(status: status, message: words, hint: "the server refuses access: check the API key or token (--header)"),
                            retryable: false)
        case 429, 503:
            let wait = HTTPRetryPolicy.retryAfter(http.value(forHTTPHeaderField: "Retry-After"))
            let hint = wait.map { "it asked to wait \(Int($0)) s (Retry-After); lower --rate or --connections" }
                ?? "the server is busy or limits requests; lower --rate or --connections"
            return .failure(HTTPError(status: status, message: words, hint: hint), retryable: true, after: wait)
        case 408, 500...599:
            return .failure(HTTPError(status: status, message: words), retryable: true)
        default:
            return .failure(HTTPError(status: status, message: words), retryable: false)
        }
    }

    /// A body sent with `Content-Encoding: gzip` that the HTTP client already decoded is gzipped
    /// again, so tiles are stored compressed as the server holds them.
    static func restoredEncoding(_ body: Data, contentEncoding: String?) -> Data {
        guard contentEncoding?.lowercased().contains("gzip") == true,
              case let sniffed = SniffedTileFormat(sniffing: body), sniffed.compression == .none, [.pbf, .json].contains(sniffed.format),
              let gzipped = try? GzipCodec.compress(body, level: 6)
        else { return body }
        return Data(gzipped)
    }
}
