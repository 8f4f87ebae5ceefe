/// `endpoint`: the S3 server of an `s3://` store (`http://127.0.0.1:9000`), before
/// `AWS_ENDPOINT_URL` and the profile's `endpoint_url`.
enum S3EndpointOption: TileStoreOptions.Key {
    public typealias Value = String
    public static let name = "endpoint"
}

extension TileStoreOptions {
    /// The S3 endpoint of an `s3://` store (`S3EndpointOption`).
    public var s3Endpoint: String? {
        get { self[S3EndpointOption.self] }
        set { self[S3EndpointOption.self] = newValue }
    }
}
