/// A store as the user named it: its kind, its address (a path today; `s3://bucket/prefix` or a
/// URL for later kinds) and the options it is read or written with.
///
/// `mbtiles:PATH`, `dir:PATH`, `tar:PATH` (any registered kind's name) force a kind; without a
/// prefix `TileStoreRegistry` asks every kind to claim the address: an existing folder, a known
/// name (`.mbtiles`, `.tar.gz`, ...), a file's first bytes, else a new folder. Two locations are
/// equal when they name the same kind and address; options are not compared.
public struct TileStoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// The store's kind.
    public let kind: any TileStoreKind
    /// The store's address without the kind prefix, as messages show it.
    public let address: String
    /// The options the store is opened with (layout, MBTiles schema, dedup, ...).
    public var options: TileStoreOptions

    /// A location of a known kind.
    public init(kind: some TileStoreKind, address: String, options: TileStoreOptions = TileStoreOptions()) {
        self.kind = kind
        self.address = address
        self.options = options
    }

    /// A location of a known kind (`any` form, for kinds chosen at run time).
    public init(anyKind kind: any TileStoreKind, address: String, options: TileStoreOptions = TileStoreOptions()) {
        self.kind = kind
        self.address = address
        self.options = options
    }

    /// Parses what the user typed with the standard registry.
    /// - Throws: `TileStoreError` (`.notATileStore`) for an empty address or an existing file of
    ///   no known kind.
    public init(parsing text: String, options: TileStoreOptions = TileStoreOptions()) throws(TileStoreError) {
        self = try TileStoreRegistry.standard.location(parsing: text, options: options)
    }

    public var description: String { address }

    /// What holds the store.
    public var resource: any TileStoreLocation.Resource { kind.resource(at: self) }

    /// Opens the store for reading.
    /// - Throws: `TileStoreError` from the kind.
    public func openReader() throws -> any TileReader {
        try kind.openReader(at: self)
    }

    /// Prepares a writer for a new store here.
    /// - Throws: `TileStoreError` (`.destinationExists` without `overwrite`, `.invalidOptions`).
    public func makeWriter(_ settings: TileWriterSettings = TileWriterSettings()) throws -> any TileWriter {
        try kind.makeWriter(at: self, settings: settings)
    }

    /// Prepares to change the store in place (created when missing).
    /// - Throws: `TileStoreError` from the kind.
    public func makeUpdater() throws -> any TileUpdater {
        try kind.makeUpdater(at: self)
    }

    /// Throws `.sameSourceAndDestination` when `other` is this store (also through another path).
    public func refuseSameStore(as other: TileStoreLocation) throws {
        if self == other || resource.refersToSameStore(as: other.resource) {
            throw TileStoreError(.sameSourceAndDestination, store: other.address,
                                 message: "is the same store as the source \(address)", hint: "choose another destination")
        }
    }

    public static func == (lhs: TileStoreLocation, rhs: TileStoreLocation) -> Bool {
        lhs.kind.name == rhs.kind.name && lhs.address == rhs.address
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind.name)
        hasher.combine(address)
    }
}
