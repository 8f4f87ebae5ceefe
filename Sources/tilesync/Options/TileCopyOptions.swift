import TileSync

/// What `convert` and `sync` read the same way: the tiles chosen (filter), how they are
/// rewritten on the way (the transforms' options: `--compress`, `--tile-format`, the layer filter), the limits and
/// `--skip-invalid`.
struct TileCopyOptions {
    let filter: TileFilter
    let skipInvalid: Bool
    let transforms: TileTransformSettings
    let limits: TileAmountLimits

    /// - Parameter skipInvalid: the command's `--skip-invalid` flag (its help differs per command).
    init(_ arguments: ParsedArguments, stores: StorePairOptions, skipInvalid: OptionDefinition) throws {
        filter = stores.filter
        self.skipInvalid = arguments.flag(skipInvalid)
        transforms = try TransformOptions.settings(arguments)
        limits = try LimitOptions(arguments).limits
    }

    func apply(to options: inout TileConverter.Options) {
        options.filter = filter
        options.skipInvalid = skipInvalid
        options.transforms = transforms
        options.limits = limits
    }

    func apply(to options: inout TileSynchronizer.Options) {
        (options.filter, options.skipInvalid, options.limits) = (filter, skipInvalid, limits)
        options.transforms = transforms
    }
}
