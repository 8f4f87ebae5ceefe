/// What a run asks its tile transforms to do, gathered from `TileConverter.Options` or
/// `TileSynchronizer.Options`.
struct TileTransformSettings: Sendable {
    /// `--compress`: the compression vector tiles get.
    var compression: TileCompression?
    /// `--tile-format` and friends: how raster tiles are re-encoded.
    var rasterEncoding: RasterReencoder.Encoding?
    /// `--layer`, `--exclude-layer`, `--include-field`, `--exclude-field`.
    var layerFilter: VectorTile.LayerFilter?
}
