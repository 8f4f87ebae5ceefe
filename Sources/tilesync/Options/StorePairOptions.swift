import TileSync

/// What `convert`, `sync` and `diff` share: the filter and the layouts of both stores, resolved
/// into the two locations (each checked against its kind).
struct StorePairOptions {
    /// The filter, then the destination's and the source's layout options.
    static func definitions(destination role: LayoutOptions.Role) -> [OptionDefinition] {
        FilterOptions.definitions + role.definitions + LayoutOptions.Role.source.definitions
            + ObjectStorageOptions.definitions(writes: role == .destination || role == .existingDestination)
    }

    let source: TileStoreLocation
    let destination: TileStoreLocation
    let filter: TileFilter

    /// - Parameters:
    ///   - role: which layout options the destination has (`.destination` or `.existingDestination`).
    ///   - destinationOptions: options for the destination besides its layout.
    init(_ arguments: ParsedArguments, destination role: LayoutOptions.Role,
         destinationOptions: TileStoreOptions = TileStoreOptions()) throws {
        filter = try FilterOptions(arguments).filter
        let destinationLayout = try LayoutOptions(arguments, role: role)
        let sourceLayout = try LayoutOptions(arguments, role: .source)
        var destinationOptions = destinationOptions
        destinationLayout.apply(to: &destinationOptions)
        var sourceOptions = TileStoreOptions()
        sourceLayout.apply(to: &sourceOptions)
        let objectStorage = try ObjectStorageOptions(arguments)
        source = try StoreArgument.location(arguments.positionals[0], options: sourceOptions, objectStorage: objectStorage,
                                            flags: { _ in sourceLayout.given.joined(separator: " and ") }, spec: arguments.spec)
        destination = try StoreArgument.location(arguments.positionals[1], options: destinationOptions, objectStorage: objectStorage,
                                                 flags: { name in
            name == LayoutOption.name ? destinationLayout.given.joined(separator: " and ") : "--" + name
        }, spec: arguments.spec)
        try objectStorage.check([source, destination], spec: arguments.spec)
    }
}
