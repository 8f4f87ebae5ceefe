/// Tiles under an `s3://bucket/prefix` of S3 or any S3-compatible server, laid out as a
/// folder's, with `metadata.json` at the prefix.
///
/// Claims `s3://` addresses (those ending in `.pmtiles` are PMTiles archives unless `s3:` is typed). Options: `layout`, `endpoint`, `transfers`, `cache-control`.
/// Credentials, region and endpoint come from the environment and `~/.aws` as AWS tools find
/// them (`S3Configuration`). The listing gives sizes and MD5s (ETags), so a sync compares by
/// content without downloading, and keeps no state of its own.
struct S3StoreKind: TileStoreKind {
    public typealias Options = S3StoreOptions

    /// The kind (stateless).
    public init() {}

    public var name: String { "s3" }
    public var displayName: String { "S3" }

    public var capabilities: TileStoreCapabilities {
        TileStoreCapabilities(nativeOrder: .unordered, hasCheapRandomAccess: true, listing: [.hashes],
                              canStoreHashes: false, updates: .inPlace, deduplication: .none,
                              preferredWriteOrder: .unordered, maintainsAggregateHash: false, isLocalIndexFile: false, keepsGrids: false)
    }

    public var optionNames: Set<String> { S3StoreOptions.optionNames }

    public var commandLineOptions: [TileStoreOptions.CommandLineOption] { S3AccessOptions.commandLineOptions }

    public func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim {
        guard candidate.urlScheme == "s3" else { return .none }
        // s3://bucket/name.pmtiles is one archive (PMTiles claims it); a prefix of that name is meant only with s3:
        return candidate.hasSuffix(in: [".pmtiles"]) ? .fallback : .definite
    }

    public func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> S3StoreOptions {
        try S3StoreOptions(options, store: location.address)
    }

    public func openReader(at location: TileStoreLocation, options: S3StoreOptions) throws(TileStoreError) -> any TileReader {
        try S3Reader(store: S3TileStore(location: location, options: options))
    }

    public func makeWriter(at location: TileStoreLocation, options: S3StoreOptions,
                           settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        try S3Writer(store: S3TileStore(location: location, options: options), overwrite: settings.overwrite,
                     sharesPrefix: settings.shard != nil)
    }

    public func makeUpdater(at location: TileStoreLocation, options: S3StoreOptions) throws(TileStoreError) -> any TileUpdater {
        S3Updater(store: try S3TileStore(location: location, options: options))
    }

    public func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        let options = (try? S3StoreOptions(location.options, store: location.address))
        return S3Resource(location: location, store: options.flatMap { try? S3TileStore(location: location, options: $0) })
    }
}

extension TileStoreKind where Self == S3StoreKind {
    /// `s3://` stores (`TileStoreLocation(kind: .s3, address: "s3://bucket/prefix")`).
    static var s3: S3StoreKind { S3StoreKind() }
}
