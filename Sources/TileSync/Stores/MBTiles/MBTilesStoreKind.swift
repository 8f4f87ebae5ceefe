/// MBTiles 1.3 files (SQLite): every schema in the wild read, flat, flat-with-hash or
/// normalized written; changed in place in one transaction.
///
/// Claims names ending in `.mbtiles`, `.sqlite`, `.sqlite3`, `.db`, and existing files that
/// start with the SQLite header. Options: `mbtiles-schema` (new files), `dedup` (the normalized
/// schema), `skip-agg-tiles-hash` (new files). The sync state lives beside the file (`.NAME.tilesync-state`); a hot journal left
/// by a killed writer is rolled back before a sync.
struct MBTilesStoreKind: TileStoreKind {
    public typealias Options = MBTilesOptions

    /// The kind (stateless; every instance is the same kind).
    public init() {}

    public var name: String { "mbtiles" }
    public var displayName: String { "MBTiles" }

    public var capabilities: TileStoreCapabilities {
        TileStoreCapabilities(nativeOrder: .zoomColumnTMSRow, hasCheapRandomAccess: true, listing: [], canStoreHashes: true,
                              updates: .inPlace, deduplication: .storesEachBlobOnce, preferredWriteOrder: .zoomColumnTMSRow,
                              maintainsAggregateHash: true, isLocalIndexFile: true, keepsGrids: true, fileSuffixes: Self.suffixes)
    }

    public var optionNames: Set<String> { [MBTilesSchemaOption.name, TileStoreOptions.Deduplication.name, MBTilesSkipAggregateHashOption.name] }

    public var commandLineOptions: [TileStoreOptions.CommandLineOption] {
        [MBTilesSchemaOption.commandLineOption, TileStoreOptions.Deduplication.commandLineOption, MBTilesSkipAggregateHashOption.commandLineOption]
    }

    static let suffixes = [".mbtiles", ".sqlite", ".sqlite3", ".db"]
    static let header = Array("SQLite format 3\0".utf8)

    public func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim {
        guard candidate.entry != .remote else { return .none }
        if candidate.hasSuffix(in: Self.suffixes) { return .name }
        return candidate.head.starts(with: Self.header) ? .content : .none
    }

    /// `dedup` selects the normalized schema; with another schema named it is refused.
    public func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> MBTilesOptions {
        let schema = options.mbtilesSchema
        let writesAggregateHash = options.mbtilesSkipsAggregateHash != true
        guard options.deduplicate == true else { return MBTilesOptions(schema: schema ?? .flat, writesAggregateHash: writesAggregateHash) }
        if let schema, schema != .normalized {
            throw TileStoreError(.invalidOptions, store: location.address, item: "option \(TileStoreOptions.Deduplication.name)",
                                 message: "an MBTiles stores each blob once in the normalized schema, not \(schema.rawValue)",
                                 hint: "drop one of the two options")
        }
        return MBTilesOptions(schema: .normalized, writesAggregateHash: writesAggregateHash)
    }

    public func openReader(at location: TileStoreLocation, options: MBTilesOptions) throws(TileStoreError) -> any TileReader {
        try MBTilesReader(location: location)
    }

    public func makeWriter(at location: TileStoreLocation, options: MBTilesOptions,
                           settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        try MBTilesWriter(location: location, schema: options.schema, writesAggregateHash: options.writesAggregateHash,
                          overwrite: settings.overwrite)
    }

    public func makeUpdater(at location: TileStoreLocation, options: MBTilesOptions) throws(TileStoreError) -> any TileUpdater {
        try MBTilesUpdater(location: location, schemaIfNew: options.schema)
    }

    public func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        LocalFileResource(path: location.address, isFolder: false) { path throws(TileStoreError) in MBTilesMaintenance.recover(path: path) }
    }
}

extension TileStoreKind where Self == MBTilesStoreKind {
    /// MBTiles files (`TileStoreLocation(kind: .mbtiles, address: ...)`).
    static var mbtiles: MBTilesStoreKind { MBTilesStoreKind() }
}
