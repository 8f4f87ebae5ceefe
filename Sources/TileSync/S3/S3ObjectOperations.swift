import Foundation

/// The S3 operations TileSync uses, on top of signed requests.
extension S3Client {
    /// An object's bytes, exactly as stored (nil when there is none): the answer's
    /// `Content-Encoding` is overridden to `identity` (`response-content-encoding`), so no HTTP
    /// layer inflates a gzipped tile, and the length is checked against `Content-Length`.
    /// - Throws: `S3Error` (also for `NoSuchBucket`).
    func object(_ key: String) throws(S3Error) -> Data? {
        let answer = try send(Self.getRequest(key), accepting: [404])
        return try Self.objectBytes(answer, key: key)
    }

    static func getRequest(_ key: String) -> S3Request {
        S3Request("GET", key: key, query: [("response-content-encoding", "identity")])
    }

    /// The bytes of a GET answer; nil for a missing key.
    /// - Throws: `S3Error` for a missing bucket or bytes that an HTTP layer changed.
    static func objectBytes(_ answer: S3Response, key: String) throws(S3Error) -> Data? {
        if answer.status == 404 {
            let code = S3XMLElement.parse(answer.body)?.value("Code")
            if code == "NoSuchBucket" { throw S3Error(status: 404, code: code, message: "no such bucket", key: "object \(key)") }
            return nil
        }
        if let length = answer.header("content-length").flatMap({ Int($0) }), length != answer.body.count {
            throw S3Error(status: answer.status, message: "got \(answer.body.count) bytes where the server sent \(length)"
                          + " (Content-Encoding \(answer.header("content-encoding") ?? "none"))", key: "object \(key)")
        }
        return answer.body
    }

    /// A PUT of one object with its `Content-MD5`, which the server checks.
    static func putRequest(_ key: String, body: Data, md5: ContentHash, headers: [String: String]) -> S3Request {
        var headers = headers
        headers["Content-MD5"] = Data(md5.bytes).base64EncodedString()
        return S3Request("PUT", key: key, headers: headers, body: body)
    }

    /// One page of ListObjectsV2.
    static func listRequest(prefix: String, delimiter: String? = nil, continuation: String?, maxKeys: Int = 1000,
                            startAfter: String? = nil) -> S3Request {
        var query = [("list-type", "2"), ("max-keys", String(maxKeys)), ("prefix", prefix)]
        if let delimiter { query.append(("delimiter", delimiter)) }
        if let continuation { query.append(("continuation-token", continuation)) }
        if let startAfter { query.append(("start-after", startAfter)) }
        return S3Request("GET", query: query)
    }

    /// Lists one page.
    /// - Throws: `S3Error`.
    func listPage(prefix: String, delimiter: String? = nil, continuation: String?, maxKeys: Int = 1000,
                  startAfter: String? = nil) throws(S3Error) -> S3ListPage {
        let answer = try send(Self.listRequest(prefix: prefix, delimiter: delimiter, continuation: continuation, maxKeys: maxKeys,
                                               startAfter: startAfter))
        return try S3ListPage(parsing: answer.body, prefix: prefix)
    }

    /// A DeleteObjects request for up to 1,000 keys (quiet: only failures are reported).
    static func deleteRequest(_ keys: [String]) -> S3Request {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Quiet>true</Quiet>"
        for key in keys { xml += "<Object><Key>\(escapeXML(key))</Key></Object>" }
        xml += "</Delete>"
        let body = Data(xml.utf8)
        return S3Request("POST", query: [("delete", "")],
                         headers: ["Content-MD5": Data(ContentHash(of: body).bytes).base64EncodedString(), "Content-Type": "application/xml"],
                         body: body)
    }

    /// The first key a DeleteObjects answer says was not deleted.
    /// - Throws: `S3Error` naming it.
    static func checkDeleteAnswer(_ answer: S3Response) throws(S3Error) {
        guard let document = S3XMLElement.parse(answer.body) else { return }
        if let failed = document.children("Error").first {
            throw S3Error(status: answer.status, code: failed.value("Code"), message: failed.value("Message") ?? "not deleted",
                          key: failed.value("Key").map { "object \($0)" })
        }
    }

    private static func escapeXML(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
