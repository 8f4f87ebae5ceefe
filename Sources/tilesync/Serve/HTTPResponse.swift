import Foundation

/// What a router answers: a status, headers and a body the server sends as it is (for `HEAD`
/// the server sends the headers only, with the body's length).
struct HTTPResponse: Sendable {
    /// The body: bytes, a range of an open file (sent from the file by the kernel), or none.
    enum Body: Sendable {
        case bytes(Data)
        case file(OpenFileRange)
        case none
    }

    var status: Int
    var headers: [(name: String, value: String)]
    var body: Body

    init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .none) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A short plain-text answer (errors): `text` and a newline.
    static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers + [("Content-Type", "text/plain; charset=utf-8")], body: .bytes(Data((text + "\n").utf8)))
    }

    /// The body's length in bytes.
    var bodyLength: Int {
        switch body {
        case .bytes(let data): data.count
        case .file(let range): Int(range.length)
        case .none: 0
        }
    }
}
