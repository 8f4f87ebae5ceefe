/// A failed S3 request, or a configuration that cannot make one: the HTTP status and S3's
/// error code when the server answered, the object key when there was one. Never holds a
/// secret (signatures and credentials stay out of messages).
struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status, nil when no answer came (a connection error, a configuration error).
    let status: Int?
    /// S3's error code (`NoSuchBucket`, `SignatureDoesNotMatch`, `SlowDown`), when given.
    let code: String?
    /// What went wrong.
    let message: String
    /// What the request was for: `object KEY`, `listing of PREFIX`, `batch delete`.
    let key: String?

    /// An error.
    init(status: Int? = nil, code: String? = nil, message: String, key: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.key = key
    }

    /// True for answers that say the credentials are wrong or lack permission.
    var isAuthorization: Bool {
        status == 403 || ["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "ExpiredToken"].contains(code ?? "")
    }

    /// What to check when `isAuthorization`.
    static let credentialsHint = "check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) and the bucket's permissions"

    var description: String {
        var parts: [String] = []
        if let status { parts.append("HTTP \(status)") }
        if let code { parts.append(code) }
        let head = parts.joined(separator: " ")
        return head.isEmpty ? message : "\(head): \(message)"
    }
}
