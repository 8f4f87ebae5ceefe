/// Tile servers as a read-only source: a URL template (`https://host/{z}/{x}/{y}.png`, with
/// `{-y}`, `{q}`, `{s}`) or the URL of a TileJSON document. Which tiles are read comes from the
/// filter (region, box, zooms) or the TileJSON bounds and zooms; each is one GET, politely
/// (`TileServerOptions`). Claims http(s) URLs holding `{z}` or `{q}`, and URLs of `.json`
/// documents. Writers and updaters are refused.
struct TileServerStoreKind: TileStoreKind {
    public typealias Options = TileServerOptions

    /// The kind (stateless).
    public init() {}

    public var name: String { "tileserver" }
    public var displayName: String { "tile server" }

    public var capabilities: TileStoreCapabilities {
        TileStoreCapabilities(nativeOrder: .unordered, hasCheapRandomAccess: false, listing: [.hashes], canStoreHashes: false,
                              updates: .rewrite, deduplication: .none, preferredWriteOrder: .unordered,
                              maintainsAggregateHash: false, isLocalIndexFile: false, keepsGrids: false, isWritable: false)
    }

    public var optionNames: Set<String> { TileServerOptions.optionNames }

    public var commandLineOptions: [TileStoreOptions.CommandLineOption] { TileServerOptions.commandLineOptions }

    /// Every option of a tile server: none changes the tiles it serves.
    public var requestOptionNames: Set<String> { TileServerOptions.optionNames.subtracting([TileServerSubdomainsOption.name]) }

    public func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim {
        guard candidate.entry == .remote, ["http", "https"].contains(candidate.urlScheme ?? "") else { return .none }
        if TileServerEndpoint.isTemplate(candidate.address) { return .definite }
        let path = candidate.address.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        return path.lowercased().hasSuffix(".json") ? .name : .none
    }

    public func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> TileServerOptions {
        try TileServerOptions(options, store: location.address)
    }

    public func openReader(at location: TileStoreLocation, options: TileServerOptions) throws(TileStoreError) -> any TileReader {
        try TileServerReader(location: location, options: options)
    }

    public func makeWriter(at location: TileStoreLocation, options: TileServerOptions,
                           settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        throw Self.readOnly(location)
    }

    public func makeUpdater(at location: TileStoreLocation, options: TileServerOptions) throws(TileStoreError) -> any TileUpdater {
        throw Self.readOnly(location)
    }

    public func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        TileServerResource(location: location)
    }

    static func readOnly(_ location: TileStoreLocation) -> TileStoreError {
        TileStoreError(.unsupported, store: location.address, message: "a tile server is a source only; it cannot be written",
                       hint: "write to an MBTiles, a folder, a PMTiles archive or s3://")
    }
}

extension TileStoreKind where Self == TileServerStoreKind {
    /// Tile servers (`TileStoreLocation(kind: .tileServer, address: "https://host/{z}/{x}/{y}.png")`).
    static var tileServer: TileServerStoreKind { TileServerStoreKind() }
}
