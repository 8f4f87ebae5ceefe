#if canImport(CTileSyncCurl)
import CTileSyncCurl
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One request on a libcurl easy handle, driven by `CurlSender`'s thread: the handle set up
/// from a `URLRequest` (method, headers, a body from memory or streamed from a file), the
/// answer's status line, headers and body collected by curl's callbacks, and the outcome
/// handed to the completion as URLSession would (`HTTPURLResponse`, or a `URLError`).
/// Used by one thread at a time.
final class CurlTransfer {
    let handle: UnsafeMutableRawPointer
    private let request: URLRequest
    private let protocols: HTTPHostProtocols?
    private let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var uploadFile: Int32 = -1
    fileprivate var body = Data()
    /// The longest body taken; past it the transfer stops (`bodyTooLong`).
    fileprivate let maxBodyBytes: Int
    fileprivate var bodyTooLong = false
    fileprivate var status = 0
    fileprivate var headers: [String: String] = [:]

    /// Sets up the handle; nil (after calling the completion with the error) when the request
    /// cannot be sent (no URL, an unreadable body file).
    init?(_ request: URLRequest, bodyFile: URL?, timeout: TimeInterval, maxBodyBytes: Int, connection: CurlConnectionSetup,
          protocols: HTTPHostProtocols?, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        self.request = request
        self.maxBodyBytes = maxBodyBytes
        self.protocols = protocols
        self.completion = completion
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        guard let url = request.url?.absoluteString, let handle = curl_easy_init() else {
            errorBuffer.deallocate()
            completion(nil, nil, URLError(.badURL))
            return nil
        }
        self.handle = handle
        do {
            try configure(url: url, bodyFile: bodyFile, timeout: timeout)
            configureConnection(connection)
        } catch {
            fail(error)
            return nil
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
        if uploadFile >= 0 { close(uploadFile) }
    }

    private func configure(url: String, bodyFile: URL?, timeout: TimeInterval) throws(URLError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        ctilesync_curl_set_string(handle, CURLOPT_URL, url)
        ctilesync_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        ctilesync_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        ctilesync_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        ctilesync_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        ctilesync_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        ctilesync_curl_set_long(handle, CURLOPT_MAXREDIRS, 10)
        ctilesync_curl_set_long(handle, CURLOPT_HTTP_CONTENT_DECODING, 0)
        ctilesync_curl_set_long(handle, CURLOPT_TCP_KEEPALIVE, 1)
        let seconds = timeout.isFinite ? min(max(timeout, 0.001), 86_400) : 30
        ctilesync_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(seconds * 1000))
        ctilesync_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        ctilesync_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(seconds)))
        ctilesync_curl_set_write_function(handle, CURLOPT_WRITEFUNCTION, curlReceivedBody)
        ctilesync_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        ctilesync_curl_set_write_function(handle, CURLOPT_HEADERFUNCTION, curlReceivedHeader)
        ctilesync_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        let method = request.httpMethod ?? "GET"
        var fields = request.allHTTPHeaderFields ?? [:]
        if let bodyFile {
            uploadFile = open(bodyFile.path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard uploadFile >= 0, fstat(uploadFile, &info) == 0 else {
                throw URLError(.fileDoesNotExist, userInfo: [NSLocalizedDescriptionKey: "\(bodyFile.path): \(String(cString: strerror(errno)))"])
            }
            ctilesync_curl_set_long(handle, CURLOPT_UPLOAD, 1)
            ctilesync_curl_set_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(info.st_size))
            ctilesync_curl_set_read_function(handle, curlSendBody)
            ctilesync_curl_set_pointer(handle, CURLOPT_READDATA, context)
        } else if let data = request.httpBody, !data.isEmpty {
            ctilesync_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(data.count))
            data.withUnsafeBytes { buffer in
                _ = ctilesync_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            }
        } else if method == "POST" || method == "PUT" || request.httpBody != nil {
            // An empty body, sent as one (`Content-Length: 0`), never read from anywhere else.
            ctilesync_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0)
            ctilesync_curl_set_string(handle, CURLOPT_COPYPOSTFIELDS, "")
        }
        let hasBody = bodyFile != nil || request.httpBody != nil || method == "POST" || method == "PUT"
        switch method {
        case "GET" where !hasBody: ctilesync_curl_set_long(handle, CURLOPT_HTTPGET, 1)
        case "HEAD": ctilesync_curl_set_long(handle, CURLOPT_NOBODY, 1)
        default: ctilesync_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }
        // No `Expect: 100-continue` round trip, and no form content type curl would add.
        fields["Expect"] = ""
        if hasBody && !fields.keys.contains(where: { $0.lowercased() == "content-type" }) {
            fields["Content-Type"] = ""
        }
        for (name, value) in fields {
            headerList = curl_slist_append(headerList, value.isEmpty ? name + ":" : name + ": " + value)
        }
        ctilesync_curl_set_list(handle, CURLOPT_HTTPHEADER, headerList)
    }

    /// HTTP/2 sharing and trust: with streams, wait for a connection that can carry the request
    /// alongside others rather than open a new one; the certificate authorities the loop found.
    private func configureConnection(_ connection: CurlConnectionSetup) {
        if connection.waitsToShare { ctilesync_curl_set_long(handle, CURLOPT_PIPEWAIT, 1) }
        if let file = connection.certificateFile { ctilesync_curl_set_string(handle, CURLOPT_CAINFO, file) }
        if let folder = connection.certificateFolder { ctilesync_curl_set_string(handle, CURLOPT_CAPATH, folder) }
    }

    /// The HTTP version curl used for the answer.
    private var answerVersion: String {
        var version = 0
        guard ctilesync_curl_get_long(handle, CURLINFO_HTTP_VERSION, &version) == CURLE_OK else { return "HTTP/1.1" }
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_2_0): return "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): return "HTTP/3"
        default: return "HTTP/1.1"
        }
    }

    fileprivate func sendBody(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        while true {
            let read = Glibc.read(uploadFile, buffer, count)
            if read >= 0 { return read }
            if errno != EINTR { return Int(CURL_READFUNC_ABORT) }
        }
    }

    /// One header line as libcurl hands it over (the status line starts a new set: after a
    /// redirect or a `100 Continue`), read as bytes: names and values trimmed of spaces and tabs.
    fileprivate func receivedHeader(_ line: UnsafeRawBufferPointer) {
        let bytes = Self.trimmed(line[...])
        guard !bytes.isEmpty else { return }
        if bytes.starts(with: Self.statusPrefix) {
            headers = [:]
            let fields = bytes.split(separator: UInt8(ascii: " "), maxSplits: 2)
            status = fields.count > 1 ? Int(String(decoding: fields[1], as: UTF8.self)) ?? 0 : 0
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: Self.trimmed(bytes[..<colon]), as: UTF8.self)
            let value = String(decoding: Self.trimmed(bytes[(colon + 1)...]), as: UTF8.self)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
    }

    private static let statusPrefix = Array("HTTP/".utf8)

    /// The bytes without leading and trailing spaces, tabs, CR and LF.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    /// Hands the outcome of the finished transfer to the completion (on another thread).
    func finish(_ result: CURLcode) {
        if bodyTooLong {
            fail(.bodyTooLong(limit: maxBodyBytes))
            return
        }
        guard result == CURLE_OK else {
            fail(Self.error(result, detail: String(cString: errorBuffer)))
            return
        }
        var url = request.url
        var effective: UnsafeMutablePointer<CChar>?
        if ctilesync_curl_get_pointer(handle, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK, let effective {
            url = URL(string: String(cString: effective)) ?? url
        }
        let version = answerVersion
        if let protocols, let host = request.url?.host {
            var connects = 0
            _ = ctilesync_curl_get_long(handle, CURLINFO_NUM_CONNECTS, &connects)
            protocols.record(host: request.url?.port.map { "\(host):\($0)" } ?? host, version: version, newConnections: connects)
        }
        guard let url, let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: version, headerFields: headers) else {
            fail(URLError(.cannotParseResponse))
            return
        }
        let (body, completion) = (body, completion)
        DispatchQueue.global().async { completion(body, response, nil) }
    }

    func fail(_ error: URLError) {
        let completion = completion
        DispatchQueue.global().async { completion(nil, nil, error) }
    }

    /// curl's result as the `URLError` URLSession would give, with curl's words.
    static func error(_ result: CURLcode, detail: String) -> URLError {
        let code: URLError.Code = switch result {
        case CURLE_COULDNT_CONNECT: .cannotConnectToHost
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .cannotFindHost
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE: .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY: .badServerResponse
        case CURLE_TOO_MANY_REDIRECTS: .httpTooManyRedirects
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: .unsupportedURL
        case CURLE_PEER_FAILED_VERIFICATION: .serverCertificateUntrusted
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE: .secureConnectionFailed
        case CURLE_ABORTED_BY_CALLBACK, CURLE_READ_ERROR: .cancelled
        default: .unknown
        }
        let words = detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: words])
    }
}

private func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
    context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
}

private let curlReceivedBody: curl_write_callback = { pointer, size, count, context in
    guard let pointer, let transfer = transfer(context) else { return 0 }
    guard size * count <= transfer.maxBodyBytes - transfer.body.count else {
        transfer.bodyTooLong = true
        return 0
    }
    transfer.body.append(UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: size * count)
    return size * count
}

private let curlReceivedHeader: curl_write_callback = { pointer, size, count, context in
    guard let pointer, let transfer = transfer(context) else { return 0 }
    transfer.receivedHeader(UnsafeRawBufferPointer(start: pointer, count: size * count))
    return size * count
}

private let curlSendBody: curl_read_callback = { pointer, size, count, context in
    guard let pointer, let transfer = transfer(context) else { return Int(CURL_READFUNC_ABORT) }
    return transfer.sendBody(into: pointer, count: size * count)
}
#endif
