/// The kinds of store TileSync knows, and how a location string finds its kind. The only file
/// outside the kinds' folders that names them: adding a kind is its folder plus one line in
/// `standard`.
///
/// A registry is a value: a test or an app adds a kind of its own with `adding(_:)` and parses
/// locations through the result; `standard` never changes.
public struct TileStoreRegistry: Sendable {
    /// The registered kinds, in the order they win ties.
    public let kinds: [any TileStoreKind]

    /// The kinds TileSync ships.
    public static let standard = TileStoreRegistry(kinds: [
        MBTilesStoreKind(),
        DirectoryStoreKind(),
        TarStoreKind(),
        PMTilesStoreKind(),
        S3StoreKind(),
        TileServerStoreKind(),
        GeoPackageStoreKind(),
    ])

    /// A registry of these kinds.
    public init(kinds: [any TileStoreKind]) {
        self.kinds = kinds
    }

    /// This registry with one more kind (after the others, so it wins no ties).
    public func adding(_ kind: some TileStoreKind) -> TileStoreRegistry {
        TileStoreRegistry(kinds: kinds + [kind])
    }

    /// The kind with this name (the prefix without its colon).
    public func kind(named name: String) -> (any TileStoreKind)? {
        kinds.first { $0.name == name }
    }

    /// The kinds that read an option.
    public func kinds(reading optionName: String) -> [any TileStoreKind] {
        kinds.filter { $0.optionNames.contains(optionName) }
    }

    /// The command-line options the kinds declare for stores used in any of `uses`, each once
    /// (the first kind's declaration), in the registry's order.
    public func commandLineOptions(for uses: Set<TileStoreLocation.Use>) -> [TileStoreOptions.CommandLineOption] {
        var seen: Set<String> = []
        return kinds.flatMap(\.commandLineOptions).filter { !$0.uses.isDisjoint(with: uses) && seen.insert($0.name).inserted }
    }

    /// The file name endings of every kind (`TileStoreCapabilities.fileSuffixes`), longest first.
    public var fileSuffixes: [String] {
        kinds.flatMap(\.capabilities.fileSuffixes).sorted { $0.count > $1.count }
    }

    /// The first kind fit for a private scratch copy with cheap random access.
    public var localIndexKind: (any TileStoreKind)? {
        kinds.first { $0.capabilities.isLocalIndexFile }
    }

    /// Resolves what the user typed: a `name:` prefix forces a kind (not `name://`, which is a
    /// URL); otherwise the kind with the strongest claim.
    /// - Throws: `TileStoreError` `.notATileStore` for an empty address or one no kind claims.
    public func location(parsing text: String, options: TileStoreOptions = TileStoreOptions()) throws(TileStoreError) -> TileStoreLocation {
        for kind in kinds where text.hasPrefix(kind.name + ":") && !text.hasPrefix(kind.name + "://") {
            let address = String(text.dropFirst(kind.name.count + 1))
            guard !address.isEmpty else {
                throw TileStoreError(.notATileStore, store: text, message: "the path after '\(kind.name):' is empty")
            }
            return TileStoreLocation(anyKind: kind, address: address, options: options)
        }
        guard !text.isEmpty else {
            throw TileStoreError(.notATileStore, store: text, message: "empty store path")
        }
        let candidate = TileStoreRegistry.Candidate(address: text)
        var best: (kind: any TileStoreKind, claim: TileStoreRegistry.Claim)?
        for kind in kinds {
            let claim = kind.claim(candidate)
            if claim > (best?.claim ?? .none) { best = (kind, claim) }
        }
        guard let best else {
            let names = kinds.map(\.displayName).joined(separator: ", ")
            let prefixes = kinds.map { $0.name + ":" }.joined(separator: ", ")
            throw TileStoreError(.notATileStore, store: text, message: "not a kind of tile store TileSync knows (\(names))",
                                 hint: "name the kind with a prefix: \(prefixes)")
        }
        return TileStoreLocation(anyKind: best.kind, address: text, options: options)
    }
}
