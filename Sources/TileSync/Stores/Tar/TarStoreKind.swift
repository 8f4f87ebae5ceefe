/// Tar archives of tile entries at a path template, plain or compressed (`.tar`, `.tar.gz`,
/// `.tgz`, `.tar.zst`, ...), with a `metadata.json` entry first. Read in one pass (no index),
/// changed by writing a new archive and renaming it over the old one.
///
/// Claims names ending in a tar suffix, and existing files with a ustar header or a gzip or
/// zstd stream. Options: `layout`, `dedup` (hard-link entries). Needs libarchive (Linux, macOS):
/// elsewhere every factory throws `.unsupported`.
struct TarStoreKind: TileStoreKind {
    public typealias Options = TileTreeOptions

    /// The kind (stateless).
    public init() {}

    public var name: String { "tar" }
    public var displayName: String { "tar archive" }

    public var capabilities: TileStoreCapabilities {
        TileStoreCapabilities(nativeOrder: .unordered, hasCheapRandomAccess: false, listing: [.hashes], canStoreHashes: false,
                              updates: .rewrite, deduplication: .linksRepeats, preferredWriteOrder: .zoomColumnRow,
                              maintainsAggregateHash: false, isLocalIndexFile: false, keepsGrids: true, fileSuffixes: Self.suffixes)
    }

    public var optionNames: Set<String> { TileTreeOptions.optionNames }

    public var commandLineOptions: [TileStoreOptions.CommandLineOption] { [TileStoreOptions.Deduplication.commandLineOption, GridCallbackOption.commandLineOption] }

    static let suffixes = [".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar.bz2", ".tar.xz"]

    public func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim {
        guard candidate.entry != .remote else { return .none }
        if candidate.hasSuffix(in: Self.suffixes) { return .name }
        let head = candidate.head
        if head.count >= 262, head[257..<262].elementsEqual("ustar".utf8) { return .content }
        if head.starts(with: [0x1F, 0x8B]) || head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .content }
        return .none
    }

    public func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> TileTreeOptions {
        try TileTreeOptions.checked(options, at: location)
    }

    public func openReader(at location: TileStoreLocation, options: TileTreeOptions) throws(TileStoreError) -> any TileReader {
        #if canImport(CTileSyncArchive)
        try TarReader(location: location, template: options.layout)
        #else
        throw Self.unsupported(location)
        #endif
    }

    public func makeWriter(at location: TileStoreLocation, options: TileTreeOptions,
                           settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        #if canImport(CTileSyncArchive)
        try TarWriter(location: location, template: options.writeLayout, deduplicate: options.deduplicate, overwrite: settings.overwrite,
                      gridCallback: options.gridCallback)
        #else
        throw Self.unsupported(location)
        #endif
    }

    public func makeUpdater(at location: TileStoreLocation, options: TileTreeOptions) throws(TileStoreError) -> any TileUpdater {
        #if canImport(CTileSyncArchive)
        TarUpdater(location: location, layout: options.layout, gridCallback: options.gridCallback)
        #else
        throw Self.unsupported(location)
        #endif
    }

    public func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        LocalFileResource(path: location.address, isFolder: false)
    }

    /// Tar archives need libarchive, which this platform's SDK lacks (iOS, tvOS, watchOS).
    static func unsupported(_ location: TileStoreLocation) -> TileStoreError {
        TileStoreError(.unsupported, store: location.address, message: "tar archives are not supported on this platform (no libarchive)",
                       hint: "convert the archive to MBTiles or a folder on Linux or macOS")
    }
}

extension TileStoreKind where Self == TarStoreKind {
    /// Tar archives (`TileStoreLocation(kind: .tar, address: ...)`).
    static var tar: TarStoreKind { TarStoreKind() }
}
