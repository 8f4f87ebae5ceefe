/// `cache-control`: the `Cache-Control` header given to every tile object written to an
/// `s3://` store (`public, max-age=86400`).
enum S3CacheControlOption: TileStoreOptions.Key {
    public typealias Value = String
    public static let name = "cache-control"
}

extension TileStoreOptions {
    /// The `Cache-Control` of tile objects written to an `s3://` store (`S3CacheControlOption`).
    public var s3CacheControl: String? {
        get { self[S3CacheControlOption.self] }
        set { self[S3CacheControlOption.self] = newValue }
    }
}
