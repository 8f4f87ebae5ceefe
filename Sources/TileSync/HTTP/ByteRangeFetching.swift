/// Reads byte ranges of one remote object (an HTTP URL, an S3 object) in the background.
protocol ByteRangeFetching: Sendable {
    /// The object, for messages (`https://host/planet.pmtiles`, `s3://bucket/key`).
    var objectName: String { get }
    /// Requests in flight the fetcher is made for.
    var transfers: Int { get }
    /// Fetches `range` (`If-Match: etag` when given); `completion` gets the answer (any status
    /// of `ByteRangeAnswer.statuses`) or the failure after the retries.
    func fetch(_ range: Range<UInt64>, ifMatch etag: String?,
               completion: @escaping @Sendable (Result<ByteRangeAnswer, HTTPError>) -> Void)
}
