/// `transfers`: requests an `s3://` store keeps in flight at once (default 32).
enum S3TransfersOption: TileStoreOptions.Key {
    public typealias Value = Int
    public static let name = "transfers"
}

extension TileStoreOptions {
    /// Requests in flight for an `s3://` store (`S3TransfersOption`).
    public var s3Transfers: Int? {
        get { self[S3TransfersOption.self] }
        set { self[S3TransfersOption.self] = newValue }
    }
}
