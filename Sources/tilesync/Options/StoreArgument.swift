import TileSync

/// A store named on the command line, with the options the command gives it, checked against
/// its kind before anything is read: an option the kind does not read (`--mbtiles-schema` for
/// a folder) or options that contradict each other are bad usage.
enum StoreArgument {
    /// Parses `text` and attaches `options`.
    /// - Parameter flags: the command-line spelling of each store option's name (a store
    ///   option `layout` is `--source-layout` for a source).
    /// - Throws: `TileStoreError` when `text` names no store; `UsageError` for options that do
    ///   not apply to its kind or contradict each other.
    static func location(_ text: String, options: TileStoreOptions, flags: (String) -> String,
                         spec: CommandSpec) throws -> TileStoreLocation {
        let location = try TileStoreLocation(parsing: text, options: options)
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
                let applies = readers.isEmpty ? "" : " (it applies to \(readers.joined(separator: " and ")) stores)"
                throw UsageError("\(flags(option)) does not apply to the \(location.kind.displayName) \(location.address)\(applies)", spec: spec)
            }
            let prefix = option.map { flags($0) + ": " } ?? error.item.map { $0 + ": " } ?? ""
            throw UsageError(prefix + error.message + (error.hint.map { " (\($0))" } ?? ""), spec: spec)
        }
    }
}
