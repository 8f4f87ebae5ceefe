import TileSync

/// The options of the tile transforms (`--compress`, `--tile-format` and its settings, the
/// layer filter, ...) of `convert` and `sync`, as the transforms declare them
/// (`TileTransforms.commandLineOptions`): a new transform needs no change here.
enum TransformOptions {
    static let definitions: [OptionDefinition] = TileTransforms.commandLineOptions.map { option in
        switch (option.placeholder, option.isRepeatable) {
        case (nil, _): .flag(option.name, help: option.help)
        case (let placeholder?, true): .repeatable(option.name, placeholder, help: option.help)
        case (let placeholder?, false): .value(option.name, placeholder, help: option.help)
        }
    }

    /// `--compress` and `--tile-format`, which let a merge's sources differ in compression and
    /// in raster format.
    static let compress = definitions.first { $0.name == "compress" }
    static let tileFormat = definitions.first { $0.name == "tile-format" }

    /// The transforms asked for (empty when no option is given).
    /// - Throws: `UsageError` with the transform's message for a value it refuses.
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> TileTransformSettings {
        var given: [String: String] = [:]
        for definition in definitions {
            if arguments.flag(definition) { given[definition.name] = "" } else if let value = arguments.value(definition) { given[definition.name] = value }
        }
        do {
            return try TileTransforms.settings(parsing: given)
        } catch {
            throw UsageError(error.message, spec: arguments.spec)
        }
    }
}
