import Foundation

/// Range requests for one object of a bucket (a PMTiles archive in S3), signed and retried by
/// the bucket's `S3Client`.
final class S3RangeFetcher: ByteRangeFetching {
    let client: S3Client
    let key: String

    init(client: S3Client, key: String) {
        self.client = client
        self.key = key
    }

    var objectName: String { "s3://\(client.bucket)/\(key)" }
    var transfers: Int { client.configuration.transfers }

    func fetch(_ range: Range<UInt64>, ifMatch etag: String?,
               completion: @escaping @Sendable (Result<ByteRangeAnswer, HTTPError>) -> Void) {
        var request = S3Client.getRequest(key)
        request.headers["Range"] = "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
        if let etag { request.headers["If-Match"] = etag }
        request.maxBodyBytes = HTTPRangeFetcher.maxBodyBytes(for: range)
        let credentials = client.configuration.credentials
        let endpoint = client.configuration.endpoint.absoluteString
        client.start(request, accepting: ByteRangeAnswer.statuses) { result in
            switch result {
            case .success(let answer):
                if answer.status == 404, S3XMLElement.parse(answer.body)?.value("Code") == "NoSuchBucket" {
                    completion(.failure(HTTPError(status: 404, message: "no such bucket '\(self.client.bucket)' at \(endpoint)")))
                    return
                }
                completion(.success(ByteRangeAnswer(status: answer.status, body: answer.body,
                                                    contentRange: answer.header("content-range"),
                                                    contentLength: answer.header("content-length").flatMap { Int($0) },
                                                    etag: answer.header("etag"))))
            case .failure(let error):
                if error.isAuthorization {
                    completion(.failure(HTTPError(status: error.status, message: "\(endpoint) refused \(credentials): \(error.description)",
                                                  hint: S3Error.credentialsHint)))
                } else {
                    completion(.failure(HTTPError(status: error.status, message: error.description)))
                }
            }
        }
    }
}
