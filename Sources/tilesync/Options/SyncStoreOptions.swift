import TileSync

/// What `sync` and `diff` share: the filter, `--checksum`, and the layouts of both stores,
/// resolved into the two locations.
struct SyncStoreOptions {
    static let checksum = OptionDefinition.flag("checksum", help: "Compare the MD5 of every tile; ignore modification times\nand the sync state.")
    static let definitions = FilterOptions.definitions + [checksum]
        + LayoutOptions.Role.destination.definitions + LayoutOptions.Role.source.definitions

    let source: TileStoreLocation
    let destination: TileStoreLocation
    let options: SyncOptions

    /// - Parameter destinationOptions: options for the destination besides its layout.
    init(_ arguments: ParsedArguments, destinationOptions: TileStoreOptions = TileStoreOptions()) throws {
        let filter = try FilterOptions(arguments)
        let destinationLayout = try LayoutOptions(arguments, role: .destination)
        let sourceLayout = try LayoutOptions(arguments, role: .source)
        var destinationOptions = destinationOptions
        destinationLayout.apply(to: &destinationOptions)
        var sourceOptions = TileStoreOptions()
        sourceLayout.apply(to: &sourceOptions)
        source = try StoreArgument.location(arguments.positionals[0], options: sourceOptions,
                                            flags: { _ in sourceLayout.given.joined(separator: " and ") }, spec: arguments.spec)
        destination = try StoreArgument.location(arguments.positionals[1], options: destinationOptions, flags: { name in
            name == LayoutOption.name ? destinationLayout.given.joined(separator: " and ") : "--" + name
        }, spec: arguments.spec)
        var options = SyncOptions()
        options.filter = filter.filter
        options.checksum = arguments.flag(Self.checksum)
        self.options = options
    }
}
