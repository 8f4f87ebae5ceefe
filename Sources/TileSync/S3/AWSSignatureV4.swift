import Foundation
import Synchronization

/// Signs requests with AWS Signature Version 4 (HMAC-SHA256), as S3 and every S3-compatible
/// server check them: canonical request, string to sign, signing key derived per day, region
/// and service, then the `Authorization` header.
///
/// Paths and query strings are given already encoded with `uriEncode`, so the request sent
/// carries exactly the bytes that were signed.
struct AWSSignatureV4: Sendable {
    let credentials: S3Configuration.Credentials
    let region: String
    let service: String
    private let keyCache = KeyCache()

    init(credentials: S3Configuration.Credentials, region: String, service: String) {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The signing key of the last day asked for (it changes once a day).
    private final class KeyCache: Sendable {
        let entry = Mutex<(day: String, key: [UInt8])?>(nil)
    }

    /// The SHA-256 of an empty payload, in hex.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The headers to add to a request: `Authorization`, `x-amz-date`, `x-amz-content-sha256`
    /// and, with temporary credentials, `x-amz-security-token`.
    /// - Parameters:
    ///   - path: the encoded absolute path (`/bucket/key`).
    ///   - query: the encoded query string without `?` (any order).
    ///   - headers: the headers that will be sent and must be signed (`host` among them).
    ///   - payloadHash: the hex SHA-256 of the body (or `UNSIGNED-PAYLOAD`).
    func authorization(method: String, path: String, query: String, headers: [String: String],
                       payloadHash: String, date: Date) -> [String: String] {
        let timestamp = Self.timestamp(date)
        let day = String(timestamp.prefix(8))
        var added = ["x-amz-date": timestamp, "x-amz-content-sha256": payloadHash]
        if let token = credentials.sessionToken { added["x-amz-security-token"] = token }
        var signed: [String: String] = [:]
        for (name, value) in headers.merging(added, uniquingKeysWith: { _, new in new }) {
            signed[name.lowercased()] = Self.trimmed(value)
        }
        let names = signed.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(signed[$0] ?? "")\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let canonicalRequest = [method, path, Self.canonicalQuery(query), canonicalHeaders, signedHeaders, payloadHash]
            .joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", timestamp, scope,
                            SHA256Digest.hex(SHA256Digest.hash(Array(canonicalRequest.utf8)))].joined(separator: "\n")
        let signature = SHA256Digest.hex(SHA256Digest.hmac(key: signingKey(day: day), message: Array(stringToSign.utf8)))
        added["Authorization"] = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope),"
            + "SignedHeaders=\(signedHeaders),Signature=\(signature)"
        return added
    }

    /// The key for one day: HMAC chained over the date, region, service and `aws4_request`.
    func signingKey(day: String) -> [UInt8] {
        if let cached = keyCache.entry.withLock({ $0 }), cached.day == day { return cached.key }
        let key = Self.deriveKey(secret: credentials.secretAccessKey, day: day, region: region, service: service)
        keyCache.entry.withLock { $0 = (day, key) }
        return key
    }

    private static func deriveKey(secret: String, day: String, region: String, service: String) -> [UInt8] {
        var key = Array(("AWS4" + secret).utf8)
        for part in [day, region, service, "aws4_request"] {
            key = SHA256Digest.hmac(key: key, message: Array(part.utf8))
        }
        return key
    }

    /// Percent-encodes everything but the unreserved characters (`A-Z a-z 0-9 - _ . ~`), and `/`
    /// too unless `keepsSlashes` (object keys in paths).
    static func uriEncode(_ text: some StringProtocol, keepsSlashes: Bool = false) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepsSlashes:
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An encoded query string from names and values, in the given order.
    static func query(_ items: [(String, String)]) -> String {
        items.map { uriEncode($0.0) + "=" + uriEncode($0.1) }.joined(separator: "&")
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// Pairs sorted by name, then value; a name without `=` gets an empty value.
    private static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { pair -> (Substring, Substring) in
            guard let equals = pair.firstIndex(of: "=") else { return (pair, "") }
            return (pair[..<equals], pair[pair.index(after: equals)...])
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Leading and trailing blanks dropped, inner runs of blanks made one space.
    private static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
