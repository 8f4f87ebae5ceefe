#if canImport(CTileSyncCurl)
import CTileSyncCurl
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Exchanges through libcurl's multi interface on one thread of its own (started at the first
/// request): connections kept alive and reused, at most `connections` open to a host, HTTP/2
/// where a TLS server offers it (with `streams`, requests wait to share a connection rather than
/// open another, up to that many on one), bodies as sent (`CURLOPT_HTTP_CONTENT_DECODING` off: a tile or object stored
/// gzipped arrives gzipped), redirects followed over http and https only. Requests are handed
/// to the thread through a queue and `curl_multi_wakeup`; completions run on other threads.
final class CurlSender: HTTPSender {
    private let loop: CurlLoop
    private let timeout: TimeInterval

    /// - Parameters:
    ///   - settings: connections, HTTP/2 streams and trusted certificates.
    ///   - timeout: seconds to connect, and seconds without a byte before a request fails.
    ///   - protocols: where the answers' HTTP versions and new connections are counted.
    init(settings: HTTPConnectionSettings, timeout: TimeInterval, protocols: HTTPHostProtocols) {
        loop = CurlLoop(settings: settings, protocols: protocols)
        self.timeout = timeout
    }

    deinit {
        loop.stop()
    }

    func send(_ request: URLRequest, bodyFile: URL?, maxBodyBytes: Int, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        loop.add(CurlTransferRequest(request: request, bodyFile: bodyFile, timeout: timeout, maxBodyBytes: maxBodyBytes, completion: completion))
    }
}
#endif
