/// The options of an `s3://` store: the tile layout under the prefix (as a folder's), the
/// endpoint, the requests in flight and the `Cache-Control` of objects written.
public struct S3StoreOptions: Sendable {
    /// The layout given; nil: from `metadata.json`'s `scheme`, else `{z}/{x}/{y}.{ext}`.
    public var layout: PathTemplate?
    /// The endpoint given; nil: as AWS tools find it.
    public var endpoint: String?
    /// Requests in flight (1 to 1,024).
    public var transfers: Int
    /// `Cache-Control` for tile objects.
    public var cacheControl: String?
    /// A configuration given in code; nil: found as AWS tools find it.
    public var configuration: S3Configuration?

    /// The option names `s3://` stores read.
    public static let optionNames: Set<String> = [LayoutOption.name, S3EndpointOption.name, S3TransfersOption.name,
                                                  S3CacheControlOption.name, S3ConfigurationOption.name]

    /// Reads the options of a location.
    /// - Throws: `TileStoreError` `.invalidOptions` for transfers outside 1...1024.
    public init(_ options: TileStoreOptions, store: String) throws(TileStoreError) {
        layout = options.layout
        endpoint = options.s3Endpoint
        cacheControl = options.s3CacheControl
        configuration = options.s3Configuration
        transfers = options.s3Transfers ?? S3Configuration.defaultTransfers
        guard (1...1024).contains(transfers) else {
            throw TileStoreError(.invalidOptions, store: store, item: "option \(S3TransfersOption.name)",
                                 message: "must be 1 to 1024, not \(transfers)")
        }
    }

    /// The configuration given in code, else found as AWS tools find it, with `transfers`.
    /// - Throws: `TileStoreError` `.invalidOptions` when no credentials are found or the
    ///   endpoint is not a URL.
    public func resolvedConfiguration(store: String) throws(TileStoreError) -> S3Configuration {
        if let configuration { return configuration }
        do {
            var found = try S3Configuration.resolve(endpoint: endpoint)
            found.transfers = transfers
            return found
        } catch {
            throw TileStoreError(.invalidOptions, store: store, message: error.message)
        }
    }
}
