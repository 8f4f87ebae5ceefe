import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends signed requests to one bucket through `URLSession`, with retries: 5xx answers, 429,
/// `SlowDown`/`RequestTimeout`, timeouts and dropped connections are tried again after an
/// exponential backoff with full jitter, up to `S3Configuration.attempts` times; other answers
/// and the last failure are an `S3Error` naming the key and the status.
///
/// `start` runs a request in the background and calls back on a session thread; `send` waits
/// for it. Requests are spread over several sessions: on Linux each `URLSession` drives its
/// transfers from one thread, which would otherwise cap a client at one core. Thread-safe.
final class S3Client: Sendable {
    let configuration: S3Configuration
    let bucket: String
    private let sessions: [URLSession]
    private let nextSession = Atomic<UInt>(0)
    private let signer: AWSSignatureV4

    init(configuration: S3Configuration, bucket: String) {
        self.configuration = configuration
        self.bucket = bucket
        let count = max(1, min(8, configuration.transfers / 4))
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpMaximumConnectionsPerHost = (configuration.transfers + count - 1) / count
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessions = (0..<count).map { _ in URLSession(configuration: sessionConfiguration) }
        signer = AWSSignatureV4(credentials: configuration.credentials, region: configuration.region, service: "s3")
    }

    deinit {
        for session in sessions { session.finishTasksAndInvalidate() }
    }

    /// Sends a request and waits for the answer.
    /// - Parameter accepting: statuses that are an answer, not an error (404 for a lookup).
    /// - Throws: `S3Error` after the retries, or at once for an answer that retrying cannot change.
    func send(_ request: S3Request, accepting: Set<Int> = []) throws(S3Error) -> S3Response {
        let waiter = S3ResultWaiter()
        start(request, accepting: accepting) { waiter.finish($0) }
        return try waiter.wait().get()
    }

    /// Sends a request in the background; `completion` gets the answer or the error.
    func start(_ request: S3Request, accepting: Set<Int> = [],
               completion: @escaping @Sendable (Result<S3Response, S3Error>) -> Void) {
        S3RequestCounters.shared.count(request.operation, endpoint: configuration.endpoint.absoluteString)
        attempt(request, number: 1, accepting: accepting, completion: completion)
    }

    private func attempt(_ request: S3Request, number: Int, accepting: Set<Int>,
                         completion: @escaping @Sendable (Result<S3Response, S3Error>) -> Void) {
        let urlRequest = signed(request)
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { [self] data, response, error in
            let outcome = classify(request, data: data, response: response, error: error, accepting: accepting)
            switch outcome {
            case .answer(let answer):
                completion(.success(answer))
            case .failure(let failure, let retryable):
                guard retryable, number < configuration.attempts else {
                    completion(.failure(failure))
                    return
                }
                let ceiling = min(configuration.maximumBackoff, configuration.initialBackoff * Double(1 << min(number - 1, 20)))
                let delay = Double.random(in: 0...ceiling)
                S3RequestCounters.shared.count(S3RequestCounters.retry, endpoint: configuration.endpoint.absoluteString)
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
                    attempt(request, number: number + 1, accepting: accepting, completion: completion)
                }
            }
        }
        let session = sessions[Int(nextSession.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(sessions.count))]
        session.dataTask(with: urlRequest, completionHandler: handler).resume()
    }

    private enum Outcome {
        case answer(S3Response)
        case failure(S3Error, retryable: Bool)
    }

    private func classify(_ request: S3Request, data: Data?, response: URLResponse?, error: (any Error)?,
                          accepting: Set<Int>) -> Outcome {
        if let error {
            let code = (error as? URLError)?.code
            let retryable = code.map { Self.retryableTransportErrors.contains($0) } ?? true
            let reason = code.map { Self.describe($0) } ?? error.localizedDescription
            return .failure(S3Error(message: "\(reason) (\(configuration.endpoint.absoluteString))", key: request.item), retryable: retryable)
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(S3Error(message: "no HTTP answer", key: request.item), retryable: true)
        }
        let body = data ?? Data()
        var headers: [String: String] = [:]
        for name in S3Response.keptHeaders {
            if let value = http.value(forHTTPHeaderField: name) { headers[name] = value }
        }
        let status = http.statusCode
        if (200..<300).contains(status) || accepting.contains(status) {
            return .answer(S3Response(status: status, headers: headers, body: body))
        }
        let document = S3XMLElement.parse(body)
        let code = document?.name == "Error" ? document?.value("Code") : nil
        let message = (document?.name == "Error" ? document?.value("Message") : nil)
            ?? HTTPURLResponse.localizedString(forStatusCode: status)
        let retryable = status >= 500 || status == 429 || ["SlowDown", "RequestTimeout", "InternalError"].contains(code ?? "")
        return .failure(S3Error(status: status, code: code, message: message, key: request.item), retryable: retryable)
    }

    private static let retryableTransportErrors: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .dnsLookupFailed,
        .cannotFindHost, .badServerResponse, .cannotParseResponse, .resourceUnavailable, .zeroByteResource,
    ]

    private static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .timedOut: "the server did not answer in time"
        case .networkConnectionLost: "the connection was dropped"
        case .cannotConnectToHost: "cannot connect to the server"
        case .cannotFindHost, .dnsLookupFailed: "cannot find the server"
        case .notConnectedToInternet: "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid: "the TLS connection failed"
        default: "the request failed (URLError \(code.rawValue))"
        }
    }

    private func signed(_ request: S3Request) -> URLRequest {
        let endpoint = configuration.endpoint
        let keyPath = request.key.map { "/" + AWSSignatureV4.uriEncode($0, keepsSlashes: true) } ?? "/"
        let basePath = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        let path: String
        var host = endpoint.host ?? ""
        if configuration.usesPathStyle {
            path = basePath + "/" + AWSSignatureV4.uriEncode(bucket) + (request.key == nil ? "" : keyPath)
        } else {
            host = bucket + "." + host
            path = basePath + keyPath
        }
        if let port = endpoint.port { host += ":\(port)" }
        let query = AWSSignatureV4.query(request.query)
        let scheme = endpoint.scheme ?? "https"
        let url = URL(string: "\(scheme)://\(host)\(path)\(query.isEmpty ? "" : "?" + query)") ?? endpoint
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        var headers = request.headers
        headers["host"] = host
        let payloadHash = SHA256Digest.hex(SHA256Digest.hash(request.body))
        let added = signer.authorization(method: request.method, path: path, query: query, headers: headers,
                                         payloadHash: payloadHash, date: Date())
        for (name, value) in headers.merging(added, uniquingKeysWith: { _, new in new }) where name != "host" {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if !request.body.isEmpty || request.method == "PUT" || request.method == "POST" { urlRequest.httpBody = request.body }
        return urlRequest
    }
}
