import TileSync

/// What `convert` and `sync` read the same way: the tiles chosen (filter), how they are
/// rewritten on the way (`--compress`, `--tile-format` and its settings, the layer filter), the limits and
/// `--skip-invalid`.
struct TileCopyOptions {
    let filter: TileFilter
    let skipInvalid: Bool
    let compression: TileCompression?
    let rasterEncoding: RasterReencoder.Encoding?
    let layerFilter: VectorTile.LayerFilter?
    let limits: TileAmountLimits

    /// - Parameter skipInvalid: the command's `--skip-invalid` flag (its help differs per command).
    init(_ arguments: ParsedArguments, stores: StorePairOptions, skipInvalid: OptionDefinition) throws {
        filter = stores.filter
        self.skipInvalid = arguments.flag(skipInvalid)
        compression = try CompressOption.compression(arguments)
        rasterEncoding = try RasterOptions.encoding(arguments)
        layerFilter = try VectorLayerOptions.filter(arguments)
        limits = try LimitOptions(arguments).limits
    }

    func apply(to options: inout TileConverter.Options) {
        options.filter = filter
        options.skipInvalid = skipInvalid
        options.compression = compression
        options.rasterEncoding = rasterEncoding
        options.layerFilter = layerFilter
        options.limits = limits
    }

    func apply(to options: inout TileSynchronizer.Options) {
        (options.filter, options.skipInvalid, options.limits) = (filter, skipInvalid, limits)
        (options.compression, options.rasterEncoding, options.layerFilter) = (compression, rasterEncoding, layerFilter)
    }
}
