/// How a store reaches S3 (an `s3://` prefix of tiles, a PMTiles archive at `s3://`): the
/// endpoint, the requests in flight, the `Cache-Control` of objects written, or a whole
/// configuration given in code. Shared by the kinds that read S3.
public struct S3AccessOptions: Sendable {
    /// The endpoint given; nil: as AWS tools find it.
    public var endpoint: String?
    /// Requests in flight (1 to 1,024).
    public var transfers: Int
    /// `Cache-Control` for objects written.
    public var cacheControl: String?
    /// A configuration given in code; nil: found as AWS tools find it.
    public var configuration: S3Configuration?

    /// The option names these come from.
    public static let optionNames: Set<String> = [S3EndpointOption.name, S3TransfersOption.name,
                                                  S3CacheControlOption.name, S3ConfigurationOption.name]

    /// `--endpoint`, `--transfers` (every store of a command that reads them) and
    /// `--cache-control` (stores written), as the kinds that read S3 offer them.
    public static let commandLineOptions: [TileStoreOptions.CommandLineOption] = [
        TileStoreOptions.CommandLineOption(name: S3EndpointOption.name, placeholder: "url",
                                   help: "S3 server of s3:// stores and archives (default:\nAWS_ENDPOINT_URL, the profile's endpoint_url, else AWS).",
                                   uses: [.read, .create, .update, .change], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            options.s3Endpoint = value
        },
        TileStoreOptions.CommandLineOption(name: S3TransfersOption.name, placeholder: "n",
                                   help: "Requests in flight for s3:// and http(s):// stores (default \(S3Configuration.defaultTransfers)).",
                                   uses: [.read, .create, .update, .change], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            options.s3Transfers = try TileStoreOptions.ValueError.wholeNumber(value, in: 1...1024)
        },
        TileStoreOptions.CommandLineOption(name: S3CacheControlOption.name, placeholder: "text",
                                   help: "Cache-Control header of objects written to s3://.",
                                   uses: [.create, .update, .change], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            options.s3CacheControl = value
        },
    ]

    /// Reads the options of a location.
    /// - Throws: `TileStoreError` `.invalidOptions` for transfers outside 1...1024.
    public init(_ options: TileStoreOptions, store: String) throws(TileStoreError) {
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
    func resolvedConfiguration(store: String) throws(TileStoreError) -> S3Configuration {
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
