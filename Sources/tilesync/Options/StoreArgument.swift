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
        let kind = location.kind
        if let foreign = location.options.names.first(where: { !kind.optionNames.contains($0) }) {
            let readers = TileStoreRegistry.standard.kinds(reading: foreign).map(\.displayName)
            let applies = readers.isEmpty ? "" : " (it applies to \(readers.joined(separator: " and ")) stores)"
            throw UsageError("\(flags(foreign)) does not apply to the \(kind.displayName) \(location.address)\(applies)", spec: spec)
        }
        do {
            try kind.validate(location)
        } catch {
            guard error.kind == .invalidOptions else { throw error }
            let option = error.item.map { $0.hasPrefix("option ") ? flags(String($0.dropFirst(7))) + ": " : $0 + ": " } ?? ""
            throw UsageError(option + error.message + (error.hint.map { " (\($0))" } ?? ""), spec: spec)
        }
    }
}
