/// One kind of tile store (MBTiles, folder, tar archive, ...): how its locations are named and
/// recognised, what it can do, and how its readers, writers and updaters are made. Each kind
/// lives in one folder under `Stores/` and is listed once in `TileStoreRegistry`; the engines
/// see only this protocol, the capabilities and the reader/writer protocols.
public protocol TileStoreKind: Sendable {
    /// The kind's own options, read from a location's `TileStoreOptions`.
    associatedtype Options: Sendable

    /// The kind's name: the prefix that forces it (`mbtiles:`) and what `info` shows.
    var name: String { get }
    /// A human name for messages (`MBTiles`, `folder`, `tar archive`).
    var displayName: String { get }
    /// What its stores can do.
    var capabilities: TileStoreCapabilities { get }
    /// The `TileStoreOptions.Key` names it reads; the command line refuses others for its stores.
    var optionNames: Set<String> { get }
    /// The options the command line offers for its stores (none by default); several kinds
    /// may declare the same option, and the registry lists it once.
    var commandLineOptions: [TileStoreOptions.CommandLineOption] { get }
    /// The option names that change only how the store is asked (connections, rate, request
    /// headers), not what it holds; a sync state does not depend on them (none by default).
    var requestOptionNames: Set<String> { get }

    /// How surely a location typed without a prefix is a store of this kind.
    func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim
    /// The kind's typed options from a location's options.
    /// - Throws: `TileStoreError` `.invalidOptions` when they contradict each other.
    func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> Options
    /// Opens an existing store for reading.
    /// - Throws: `TileStoreError` (`.notFound`, `.notATileStore`, `.corrupt`, ...).
    func openReader(at location: TileStoreLocation, options: Options) throws(TileStoreError) -> any TileReader
    /// Prepares a writer for a new store, visible when it finishes.
    /// - Throws: `TileStoreError` (`.destinationExists` without `settings.overwrite`).
    func makeWriter(at location: TileStoreLocation, options: Options, settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter
    /// Prepares to change a store in place; a missing store is created when the change commits.
    /// - Throws: `TileStoreError` when the store cannot be changed.
    func makeUpdater(at location: TileStoreLocation, options: Options) throws(TileStoreError) -> any TileUpdater
    /// What holds the store at `location`.
    func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource
    /// The addresses of the stores a location holds when it names a container of several
    /// (a GeoPackage file with several tile tables gives `file.gpkg#table` for each); empty when
    /// it names one store (the default), so `info` lists them instead of reading one.
    func containedStores(at location: TileStoreLocation) -> [String]
    /// The metadata a reader of this kind gives back after a writer stored `metadata`: the same
    /// keys and values unless the kind moves or reformats some (a PMTiles keeps bounds and
    /// centre in its header, to 10^-7 degrees). A sync compares this with the destination's.
    func storedMetadata(_ metadata: TileMetadata) -> TileMetadata
}

extension TileStoreKind {
    public func storedMetadata(_ metadata: TileMetadata) -> TileMetadata { metadata }

    public var commandLineOptions: [TileStoreOptions.CommandLineOption] { [] }

    public func containedStores(at location: TileStoreLocation) -> [String] { [] }

    public var requestOptionNames: Set<String> { [] }

    /// Checks a location's options: every option is one this kind reads, and they agree.
    /// - Throws: `TileStoreError` `.invalidOptions` naming the first one that does not.
    public func validate(_ location: TileStoreLocation) throws(TileStoreError) {
        if let foreign = location.options.names.first(where: { !optionNames.contains($0) }) {
            throw TileStoreError(.invalidOptions, store: location.address, item: "option \(foreign)",
                                 message: "does not apply to \(displayName) stores")
        }
        _ = try options(from: location.options, at: location)
    }

    func openReader(at location: TileStoreLocation) throws(TileStoreError) -> any TileReader {
        try openReader(at: location, options: options(from: location.options, at: location))
    }

    func makeWriter(at location: TileStoreLocation, settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        try makeWriter(at: location, options: options(from: location.options, at: location), settings: settings)
    }

    func makeUpdater(at location: TileStoreLocation) throws(TileStoreError) -> any TileUpdater {
        try makeUpdater(at: location, options: options(from: location.options, at: location))
    }
}
