import TileSync

/// A store named on the command line, with the options the command gives it, checked against
/// its kind before anything is read: an option the kind does not read (`--mbtiles-schema` for
/// a folder) or options that contradict each other are bad usage.
enum StoreArgument {
    /// The one store of `info`, `meta` or `apply` at a position of the command line, with its
    /// `--layout`/`--scheme` and the options its kind declares for `use` applied and checked.
    /// - Throws: `UsageError` for options that do not fit, `TileStoreError` for a bad location.
    static func store(at position: Int, of arguments: ParsedArguments, use: TileStoreLocation.Use) throws -> TileStoreLocation {
        let layout = try LayoutOptions(arguments, role: .store)
        let kindOptions = StoreKindOptions(arguments, uses: [use])
        var options = try kindOptions.writtenStoreOptions(use: use)
        layout.apply(to: &options)
        let store = try location(arguments.positionals[position], options: options, kindOptions: kindOptions, use: use,
                                 flags: { _ in layout.given.joined(separator: " and ") }, spec: arguments.spec)
        try kindOptions.check([store])
        return store
    }

    /// Parses `text` and attaches `options`.
    /// - Parameter flags: the command-line spelling of each store option's name (a store
    ///   option `layout` is `--source-layout` for a source).
    /// - Throws: `TileStoreError` when `text` names no store; `UsageError` for options that do
    ///   not apply to its kind or contradict each other.
    ///   - kindOptions: the kinds' options given, set where the kind reads them.
    ///   - use: what the command does with the store.
    static func location(_ text: String, options: TileStoreOptions, kindOptions: StoreKindOptions, use: TileStoreLocation.Use,
                         flags: (String) -> String, spec: CommandSpec) throws -> TileStoreLocation {
        var location = try TileStoreLocation(parsing: text, options: options)
        try kindOptions.attach(to: &location, use: use)
        try check(location, flags: flags, spec: spec)
        return location
    }

    static func check(_ location: TileStoreLocation, flags: (String) -> String, spec: CommandSpec) throws {
        do {
            try location.kind.validate(location)
        } catch {
            guard error.kind == .invalidOptions else { throw error }
            let option = error.item.flatMap { $0.hasPrefix("option ") ? String($0.dropFirst(7)) : nil }
            if let option, !location.kind.optionNames.contains(option) {
                let readers = TileStoreRegistry.standard.kinds(reading: option).map(\.displayName)
                let names = readers.count > 1 ? readers.dropLast().joined(separator: ", ") + " and " + (readers.last ?? "") : readers.joined()
                let applies = readers.isEmpty ? "" : " (it applies to \(names) stores)"
                throw UsageError("\(flags(option)) does not apply to the \(location.kind.displayName) \(location.address)\(applies)", spec: spec)
            }
            let prefix = option.map { flags($0) + ": " } ?? error.item.map { $0 + ": " } ?? ""
            throw UsageError(prefix + error.message + (error.hint.map { " (\($0))" } ?? ""), spec: spec)
        }
    }
}
