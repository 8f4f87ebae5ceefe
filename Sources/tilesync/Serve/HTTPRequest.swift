import CTileSyncMicroHTTPD

/// One HTTP request as the server hands it to a router: the method, the path as sent (still
/// percent-encoded, without the query) and its headers, looked up by name when a route asks
/// (from libmicrohttpd's parsed head while the request is being answered, or from a table in
/// tests).
struct HTTPRequest {
    /// `GET`, `HEAD`, ...
    let method: String
    /// The request target's path, not decoded (`/world/1/0/0.png`).
    let path: String
    private let connection: OpaquePointer?
    private let headers: [String: String]

    /// A request with the headers given (names in lower case).
    init(method: String, path: String, headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.headers = headers
        connection = nil
    }

    /// The request libmicrohttpd is answering on `connection` (valid until it is answered).
    init(method: String, path: String, connection: OpaquePointer) {
        self.method = method
        self.path = path
        self.connection = connection
        headers = [:]
    }

    /// A header's value (the first one given), by its lower-case name.
    func header(_ lowercaseName: String) -> String? {
        guard let connection else { return headers[lowercaseName] }
        return MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, lowercaseName).map { String(cString: $0) }
    }
}
