/// One object of a listing: key, size and the MD5 its ETag gives, when it gives one.
struct S3ObjectSummary: Sendable, Equatable {
    let key: String
    let size: Int
    /// The ETag as a content MD5: nil for ETags that are not one (multipart uploads end in
    /// `-N`; anything not 32 hex digits).
    let md5: ContentHash?

    init(key: String, size: Int, etag: String) {
        self.key = key
        self.size = size
        var digits = Substring(etag)
        if digits.hasPrefix("\"") && digits.hasSuffix("\"") && digits.count >= 2 { digits = digits.dropFirst().dropLast() }
        md5 = ContentHash(hex: digits)
    }
}
