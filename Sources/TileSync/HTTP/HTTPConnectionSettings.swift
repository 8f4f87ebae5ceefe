/// How a transport connects: connections per host, requests sharing one HTTP/2 connection, and
/// the certificate authorities trusted beyond the system's.
struct HTTPConnectionSettings: Sendable, Equatable {
    /// Connections open at once to a host (over HTTP/1.1 also the requests on the wire).
    var connections: Int
    /// Requests in flight on one HTTP/2 connection (the server's SETTINGS_MAX_CONCURRENT_STREAMS
    /// caps it); nil leaves libcurl's default and lets requests open new connections freely.
    var streams: Int?
    /// A PEM file of certificate authorities to trust (`--cacert`); nil for `CURL_CA_BUNDLE`
    /// or `SSL_CERT_FILE` when set, else the system's.
    var certificates: String?

    init(connections: Int, streams: Int? = nil, certificates: String? = nil) {
        self.connections = max(1, connections)
        self.streams = streams.map { max(1, $0) }
        self.certificates = certificates
    }

    /// The certificate file and folder to trust, as the curl tool finds them: `certificates`,
    /// else `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`; the folder from `SSL_CERT_DIR` (empty values
    /// count as unset; nil for the system's).
    func trust(environment: [String: String]) -> (file: String?, folder: String?) {
        let file = [certificates, environment["CURL_CA_BUNDLE"], environment["SSL_CERT_FILE"]].lazy.compactMap { $0 }.first { !$0.isEmpty }
        return (file, environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 })
    }
}
