import TileSync

/// The options the registry's kinds declare for a command's stores (`--mbtiles-schema`,
/// `--dedup`, `--grid-callback`, `--endpoint`, `--transfers`, `--cache-control`, and whatever
/// a new kind declares): help and parsing come from `TileStoreRegistry.standard`, so no
/// command names a kind's option.
struct StoreKindOptions {
    /// The definitions offered for stores used in any of `uses`.
    /// The prefixes that force a kind, from the registry: `mbtiles:, dir:, ... or tileserver:`.
    static var kindPrefixes: String {
        let prefixes = TileStoreRegistry.standard.kinds.map { $0.name + ":" }
        return prefixes.count > 1 ? prefixes.dropLast().joined(separator: ", ") + " or " + (prefixes.last ?? "") : prefixes.joined()
    }

    static func definitions(for uses: Set<TileStoreLocation.Use>) -> [OptionDefinition] {
        TileStoreRegistry.standard.commandLineOptions(for: uses).map(definition)
    }

    private static func definition(_ option: TileStoreOptions.CommandLineOption) -> OptionDefinition {
        guard let placeholder = option.placeholder else { return .flag(option.name, help: option.help) }
        return option.isRepeatable ? .repeatable(option.name, placeholder, help: option.help) : .value(option.name, placeholder, help: option.help)
    }

    private let given: [(option: TileStoreOptions.CommandLineOption, text: String)]
    private let spec: CommandSpec

    /// The options given among those offered for `uses`.
    init(_ arguments: ParsedArguments, uses: Set<TileStoreLocation.Use>) {
        spec = arguments.spec
        given = TileStoreRegistry.standard.commandLineOptions(for: uses).compactMap { option in
            let definition = Self.definition(option)
            if option.placeholder == nil { return arguments.flag(definition) ? (option, "") : nil }
            return arguments.value(definition).map { (option, $0) }
        }
    }

    /// Options for the store a command writes, before its location is parsed: those given to
    /// the store written (its kind refuses them later when it does not read them).
    /// - Throws: `UsageError` for a value the option cannot take.
    func writtenStoreOptions(use: TileStoreLocation.Use) throws(UsageError) -> TileStoreOptions {
        var options = TileStoreOptions()
        for (option, text) in given where option.recipients == .storeWritten && option.uses.contains(use) {
            try set(option, text, in: &options)
        }
        return options
    }

    /// Sets on `location` the options given to every store whose kind reads them.
    /// - Throws: `UsageError` for a value the option cannot take.
    func attach(to location: inout TileStoreLocation, use: TileStoreLocation.Use) throws(UsageError) {
        let reads = location.kind.optionNames
        for (option, text) in given where option.recipients == .storesReadingIt && option.uses.contains(use) && reads.contains(option.name) {
            try set(option, text, in: &location.options)
        }
    }

    /// Refuses an option given to the stores that read it when no store of the command does.
    /// - Throws: `UsageError` naming the option and the kinds that read it.
    func check(_ locations: [TileStoreLocation]) throws(UsageError) {
        for (option, _) in given where option.recipients == .storesReadingIt {
            guard !locations.contains(where: { $0.kind.optionNames.contains(option.name) }) else { continue }
            let readers = TileStoreRegistry.standard.kinds(reading: option.name).map(\.displayName)
            let names = readers.count > 1 ? readers.dropLast().joined(separator: ", ") + " and " + (readers.last ?? "") : readers.joined()
            throw UsageError("--\(option.name) applies to \(names) stores, and no store here is one", spec: spec)
        }
    }

    private func set(_ option: TileStoreOptions.CommandLineOption, _ text: String, in options: inout TileStoreOptions) throws(UsageError) {
        do {
            try option.set(text, in: &options)
        } catch {
            throw UsageError("--\(option.name) \(error.message)", spec: spec)
        }
    }
}
