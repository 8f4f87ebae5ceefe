import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends signed requests to one bucket through an `HTTPTransport`, with retries: 5xx answers,
/// 429, `SlowDown`/`RequestTimeout`, timeouts and dropped connections are tried again after an
/// exponential backoff with full jitter, up to `S3Configuration.attempts` times; other answers
/// and the last failure are an `S3Error` naming the key and the status.
///
/// `start` runs a request in the background and calls back on a session thread; `send` waits
/// for it. Thread-safe.
final class S3Client: Sendable {
    let configuration: S3Configuration
    let bucket: String
    private let transport: HTTPTransport
    private let signer: AWSSignatureV4

    init(configuration: S3Configuration, bucket: String) {
        self.configuration = configuration
        self.bucket = bucket
        let policy = HTTPRetryPolicy(attempts: configuration.attempts, initialBackoff: configuration.initialBackoff,
                                     maximumBackoff: configuration.maximumBackoff, timeout: configuration.timeout)
        transport = HTTPTransport(policy: policy, connections: configuration.transfers)
        signer = AWSSignatureV4(credentials: configuration.credentials, region: configuration.region, service: "s3")
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
        let endpoint = configuration.endpoint.absoluteString
        S3RequestCounters.shared.count(request.operation, endpoint: endpoint)
        transport.start(makeRequest: { [self] in signed(request) }, bodyFile: request.bodyFile?.url,
                        maxBodyBytes: request.maxBodyBytes ?? HTTPTransport.defaultMaxBodyBytes,
                        judge: { http, body in Self.judge(request, http: http, body: body, accepting: accepting) },
                        transportFailure: { message, _ in S3Error(message: "\(message) (\(endpoint))", key: request.item) },
                        onRetry: { S3RequestCounters.shared.count(S3RequestCounters.retry, endpoint: endpoint) },
                        completion: completion)
    }

    private static func judge(_ request: S3Request, http: HTTPURLResponse, body: Data,
                              accepting: Set<Int>) -> HTTPAttemptOutcome<S3Response, S3Error> {
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
        let payloadHash = request.bodyFile?.sha256 ?? SHA256Digest.hex(SHA256Digest.hash(request.body))
        let added = signer.authorization(method: request.method, path: path, query: query, headers: headers,
                                         payloadHash: payloadHash, date: Date())
        var fields = headers.merging(added, uniquingKeysWith: { _, new in new })
        fields["host"] = nil
        fields["Accept-Encoding"] = "identity"
        // One assignment: FoundationNetworking validates and recases each `setValue`.
        urlRequest.allHTTPHeaderFields = fields
        if request.bodyFile == nil, !request.body.isEmpty || request.method == "PUT" || request.method == "POST" {
            urlRequest.httpBody = request.body
        }
        return urlRequest
    }
}
