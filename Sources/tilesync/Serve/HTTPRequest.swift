/// One HTTP request as the server hands it to a router: the method, the path as sent (still
/// percent-encoded, without the query) and the few headers the routes read.
struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, ...
    let method: String
    /// The request target's path, not decoded (`/world/1/0/0.png`).
    let path: String
    /// Header values by lower-case name (only the ones in `HTTPRequest.headerNames`).
    let headers: [String: String]

    /// The headers a server copies into a request.
    static let headerNames = ["host", "if-none-match", "range", "if-range", "x-forwarded-proto"]

    init(method: String, path: String, headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.headers = headers
    }

    func header(_ lowercaseName: String) -> String? { headers[lowercaseName] }
}
