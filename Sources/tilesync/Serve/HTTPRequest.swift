import CTileSyncMicroHTTPD
import Foundation

/// One HTTP request as the server hands it to a router: the method, the path as sent (still
/// percent-encoded, without the query) and its headers, looked up by name when a route asks
/// (from libmicrohttpd's parsed head while the request is being answered, or from a table in
/// tests). A request from libmicrohttpd keeps its path as libmicrohttpd's text: a tile route
/// reads the bytes where they are, and `path` writes out a `String` only for other routes.
struct HTTPRequest {
    /// `GET`, `HEAD`, ...
    let method: String
    private let source: Source

    private enum Source {
        case table(path: String, headers: [String: String])
        case connection(OpaquePointer, path: UnsafePointer<CChar>)
    }

    /// A request with the headers given (names in lower case).
    init(method: String, path: String, headers: [String: String] = [:]) {
        self.method = method
        source = .table(path: path, headers: headers)
    }

    /// The request libmicrohttpd is answering on `connection`, with its path (both valid until
    /// it is answered).
    init(method: String, path: UnsafePointer<CChar>, connection: OpaquePointer) {
        self.method = method
        source = .connection(connection, path: path)
    }

    /// The request target's path, not decoded (`/world/1/0/0.png`).
    var path: String {
        switch source {
        case .table(let path, _): path
        case .connection(_, let path): String(cString: path)
        }
    }

    /// Runs `body` with the path's UTF-8 bytes (valid only inside `body`).
    func withPathBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch source {
        case .table(var path, _):
            return path.withUTF8(body)
        case .connection(_, let path):
            let count = strlen(path)
            return path.withMemoryRebound(to: UInt8.self, capacity: count) { body(UnsafeBufferPointer(start: $0, count: count)) }
        }
    }

    /// A header's value (the first one given), by its lower-case name.
    func header(_ lowercaseName: String) -> String? {
        switch source {
        case .table(_, let headers): headers[lowercaseName]
        case .connection(let connection, _):
            lowercaseName.withCString { name in
                MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
            }
        }
    }
}
