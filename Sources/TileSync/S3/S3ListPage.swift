import Foundation

/// One page of a ListObjectsV2 answer: objects, common prefixes (with a delimiter), and the
/// token of the next page.
struct S3ListPage: Sendable {
    let objects: [S3ObjectSummary]
    let commonPrefixes: [String]
    let continuationToken: String?

    /// Parses a `ListBucketResult` document.
    /// - Throws: `S3Error` when the answer is not one.
    init(parsing body: Data, prefix: String) throws(S3Error) {
        guard let document = S3XMLElement.parse(body), document.name == "ListBucketResult" else {
            throw S3Error(message: "the server's listing is not a ListBucketResult document", key: "listing of \(prefix)")
        }
        var objects: [S3ObjectSummary] = []
        for entry in document.children("Contents") {
            guard let key = entry.value("Key"), let size = entry.value("Size").flatMap({ Int($0) }), size >= 0 else {
                throw S3Error(message: "the server's listing has an entry without a key or size", key: "listing of \(prefix)")
            }
            objects.append(S3ObjectSummary(key: key, size: size, etag: entry.value("ETag") ?? ""))
        }
        self.objects = objects
        commonPrefixes = document.children("CommonPrefixes").compactMap { $0.value("Prefix") }
        let truncated = document.value("IsTruncated")?.lowercased() == "true"
        let token = document.value("NextContinuationToken").flatMap { $0.isEmpty ? nil : $0 }
        if truncated && token == nil {
            throw S3Error(message: "the server's listing is truncated but gives no continuation token", key: "listing of \(prefix)")
        }
        continuationToken = truncated ? token : nil
    }
}
