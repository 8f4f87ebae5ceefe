import Foundation
import TileSync

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
    /// A tile's MD5, sent as `ETag: "<32 hex digits>"` (written out as the head is).
    var entityTag: ContentHash?
    var headers: [(name: String, value: String)]
    /// Headers every answer carries (CORS), sent after `headers`: one list shared by all.
    var sharedHeaders: [(name: String, value: String)] = []
    var body: Body

    init(status: Int, entityTag: ContentHash? = nil, headers: [(name: String, value: String)] = [], body: Body = .none) {
        self.status = status
        self.entityTag = entityTag
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
