/// Folder trees of tile files at a path template, with `metadata.json` at the root.
///
/// Claims existing folders, and new paths that no other kind claims by name. Options: `layout`
/// (`PathTemplate`), `dedup` (hard links). The listing gives each file's size and modification
/// time, which is the whole quick check between two folders (no sync state is kept then); a
/// sync into a folder keeps its state in `.tilesync-state` inside it and recovers an interrupted
/// journal first.
struct DirectoryStoreKind: TileStoreKind {
    public typealias Options = TileTreeOptions

    /// The kind (stateless).
    public init() {}

    public var name: String { "dir" }
    public var displayName: String { "folder" }

    public var capabilities: TileStoreCapabilities {
        TileStoreCapabilities(nativeOrder: .zoomColumnRow, hasCheapRandomAccess: true, listing: [.modificationTimes],
                              canStoreHashes: false, updates: .inPlace, deduplication: .linksRepeats,
                              preferredWriteOrder: .zoomColumnRow, maintainsAggregateHash: false, isLocalIndexFile: false, keepsGrids: true)
    }

    public var optionNames: Set<String> { TileTreeOptions.optionNames }

    public var commandLineOptions: [TileStoreOptions.CommandLineOption] { [TileStoreOptions.Deduplication.commandLineOption, GridCallbackOption.commandLineOption] }

    public func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim {
        switch candidate.entry {
        case .folder: .definite
        case .missing: .fallback
        case .file, .remote: .none
        }
    }

    public func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> TileTreeOptions {
        try TileTreeOptions.checked(options, at: location)
    }

    public func openReader(at location: TileStoreLocation, options: TileTreeOptions) throws(TileStoreError) -> any TileReader {
        try DirectoryReader(location: location, template: options.layout)
    }

    public func makeWriter(at location: TileStoreLocation, options: TileTreeOptions,
                           settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        try DirectoryWriter(location: location, template: options.writeLayout, deduplicate: options.deduplicate,
                            preservesModificationTimes: settings.preservesModificationTimes, overwrite: settings.overwrite,
                            gridCallback: options.gridCallback)
    }

    public func makeUpdater(at location: TileStoreLocation, options: TileTreeOptions) throws(TileStoreError) -> any TileUpdater {
        DirectoryUpdater(location: location, layout: options.layout, gridCallback: options.gridCallback)
    }

    public func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        LocalFileResource(path: location.address, isFolder: true) { path throws(TileStoreError) in
            try DirectoryUpdater.recover(root: path)
        }
    }
}

extension TileStoreKind where Self == DirectoryStoreKind {
    /// Folder trees (`TileStoreLocation(kind: .directory, address: ...)`).
    static var directory: DirectoryStoreKind { DirectoryStoreKind() }
}
