/// PMTiles v3 archives: one file of tiles addressed by Hilbert tile ID, read by index (binary
/// search in the root and cached leaves), written clustered with equal blobs stored once, and
/// changed by writing a new archive renamed over the old one.
///
/// Claims names ending in `.pmtiles` and existing files that start with the PMTiles magic
/// number, also `s3://` and `http(s)://` URLs whose path ends in `.pmtiles`: those are read
/// with range requests, and written to `s3://` with a multipart upload. Reads the `dedup`
/// option and ignores it (an archive always stores equal blobs once), and the object-storage
/// options (`PMTilesStoreOptions`).
struct PMTilesStoreKind: TileStoreKind {
    public typealias Options = PMTilesStoreOptions

    /// The kind (stateless).
    public init() {}

    public var name: String { "pmtiles" }
    public var displayName: String { "PMTiles archive" }

    public var capabilities: TileStoreCapabilities {
        TileStoreCapabilities(nativeOrder: .tileID, hasCheapRandomAccess: true, listing: [], canStoreHashes: false,
                              updates: .rewrite, deduplication: .storesEachBlobOnce, preferredWriteOrder: .tileID,
                              maintainsAggregateHash: false, isLocalIndexFile: false, keepsGrids: false,
                              isRangeReadArchive: true, fileSuffixes: [".pmtiles"])
    }

    public var optionNames: Set<String> { PMTilesStoreOptions.optionNames }

    public var commandLineOptions: [TileStoreOptions.CommandLineOption] { S3AccessOptions.commandLineOptions }

    public func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim {
        if candidate.entry == .remote {
            guard PMTilesSourceOpener.isRemote(candidate.address) else { return .none }
            let path = candidate.address.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
            return path.lowercased().hasSuffix(".pmtiles") ? .definite : .none
        }
        if candidate.hasSuffix(in: capabilities.fileSuffixes) { return .name }
        let head = candidate.head
        if head.starts(with: PMTilesHeader.magic) { return .content }
        // PMTiles v1 and v2 start with "PM" and a 16-bit version: claimed, so the reader names the version.
        if head.count >= 4, head[0] == UInt8(ascii: "P"), head[1] == UInt8(ascii: "M"), [1, 2].contains(head[2]), head[3] == 0 { return .content }
        return .none
    }

    public func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> PMTilesStoreOptions {
        try PMTilesStoreOptions(options, store: location.address)
    }

    public func openReader(at location: TileStoreLocation, options: PMTilesStoreOptions) throws(TileStoreError) -> any TileReader {
        try PMTilesReader(location: location, options: options)
    }

    public func makeWriter(at location: TileStoreLocation, options: PMTilesStoreOptions, settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        try PMTilesWriter(location: location, options: options, overwrite: settings.overwrite, isCancelled: settings.isCancelled)
    }

    public func makeUpdater(at location: TileStoreLocation, options: PMTilesStoreOptions) throws(TileStoreError) -> any TileUpdater {
        PMTilesUpdater(location: location, options: options)
    }

    /// Through the go-pmtiles mapping and back: `json` members compacted and reordered,
    /// bounds and centre rounded to 10^-7 degrees, a centre added where the writer adds one.
    public func storedMetadata(_ metadata: TileMetadata) -> TileMetadata {
        let mapped = PMTilesMetadataMapping.encode(metadata)
        let zooms = (metadata.minZoom ?? 0, metadata.maxZoom ?? metadata.minZoom ?? 0)
        let header = PMTilesHeaderBuilder.header(metadata: metadata, format: SniffedTileFormat(metadata.format ?? .unknown),
                                                    bounds: mapped.bounds, center: mapped.center, zooms: zooms)
        return (try? PMTilesMetadataMapping.decode(mapped.json, header: header, store: "")) ?? metadata
    }

    public func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        if PMTilesSourceOpener.isRemote(location.address) { return PMTilesRemoteResource(location: location) }
        return LocalFileResource(path: location.address, isFolder: false)
    }
}

extension TileStoreKind where Self == PMTilesStoreKind {
    /// PMTiles archives (`TileStoreLocation(kind: .pmtiles, address: ...)`).
    static var pmtiles: PMTilesStoreKind { PMTilesStoreKind() }
}
