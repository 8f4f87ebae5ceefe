import TileSync

/// What `convert`, `sync` and `diff` share: the filter and the layouts of both stores, resolved
/// into the two locations (each checked against its kind).
struct StorePairOptions {
    /// The filter, the destination's and the source's layout options, then the options the
    /// kinds declare for a source and a destination used as `use`.
    static func definitions(destination role: LayoutOptions.Role, use: TileStoreLocation.Use) -> [OptionDefinition] {
        FilterOptions.definitions + role.definitions + LayoutOptions.Role.source.definitions
            + StoreKindOptions.definitions(for: [.read, use])
    }

    /// `--on-duplicate`: how a merge of several sources decides a coordinate several hold.
    static let onDuplicate = OptionDefinition.value(
        "on-duplicate", "override|ignore|abort",
        help: "With several sources: a later source wins a coordinate (override), the first\n"
            + "keeps it (ignore), or different bytes stop the run (abort, the default).")

    /// `--compare-duplicates`: read tiles several sources hold to tell equal from different
    /// under `override` and `ignore` where listed sizes do not.
    static let compareDuplicates = OptionDefinition.flag(
        "compare-duplicates",
        help: "With several sources and --on-duplicate override or ignore: read the tiles\n"
            + "several sources hold to count equal ones apart where listed sizes do not tell\n"
            + "(else the policy decides them unread; abort always compares).")

    /// The options of a merge of several sources, as `convert`, `sync` and `diff` take them.
    static let mergeDefinitions = [onDuplicate, compareDuplicates]

    /// The source: the one store given, or the merge of several in the order given.
    let source: TileStoreLocation
    /// The merge, when several sources were given (its tally says what each gave).
    let merge: MergedStoreKind?
    let destination: TileStoreLocation
    let filter: TileFilter

    /// - Parameters:
    ///   - role: which layout options the destination has (`.destination` or `.existingDestination`).
    ///   - use: what the command does with the destination (`.create`, `.change`, `.read`).
    ///   - skipsInvalidLines: the command's `--skip-invalid` (a tile list's bad lines skipped too).
    init(_ arguments: ParsedArguments, destination role: LayoutOptions.Role, use: TileStoreLocation.Use, skipsInvalidLines: Bool = false) throws {
        filter = try FilterOptions(arguments, skipsInvalidLines: skipsInvalidLines).filter
        let destinationLayout = try LayoutOptions(arguments, role: role)
        let sourceLayout = try LayoutOptions(arguments, role: .source)
        let kindOptions = StoreKindOptions(arguments, uses: [.read, use])
        var destinationOptions = try kindOptions.writtenStoreOptions(use: use)
        destinationLayout.apply(to: &destinationOptions)
        var sourceOptions = TileStoreOptions()
        sourceLayout.apply(to: &sourceOptions)
        let sources = try arguments.positionals.dropLast().map { text in
            try StoreArgument.location(text, options: sourceOptions, kindOptions: kindOptions, use: .read,
                                       flags: { _ in sourceLayout.given.joined(separator: " and ") }, spec: arguments.spec)
        }
        if sources.count > 1 {
            let policy = try arguments.choice(Self.onDuplicate, as: MergedStoreKind.DuplicatePolicy.self) ?? .abort
            let kind = MergedStoreKind(sources: sources, policy: policy,
                                       compressionsMayDiffer: TransformOptions.compress.map(arguments.isGiven) ?? false,
                                       rasterFormatsMayDiffer: TransformOptions.tileFormat.map(arguments.isGiven) ?? false,
                                       comparesDuplicates: arguments.isGiven(Self.compareDuplicates))
            source = kind.location
            merge = kind
        } else {
            source = sources[0]
            merge = nil
        }
        destination = try StoreArgument.location(arguments.positionals[arguments.positionals.count - 1], options: destinationOptions, kindOptions: kindOptions, use: use,
                                                 flags: { name in
            name == TileStoreOptions.Layout.name ? destinationLayout.given.joined(separator: " and ") : "--" + name
        }, spec: arguments.spec)
        try kindOptions.check(sources + [destination])
    }
}
