/// The tile transforms a run can apply, in the order they run: each makes its stage from the
/// settings, or nil when the settings do not ask for it. A new transform is its file and one
/// line here.
enum TileTransforms {
    typealias Maker = @Sendable (TileTransformSettings, any TileReader) throws -> (any TileTransform)?

    static let standard: [Maker] = [
        VectorLayerFilterTransform.make,
        RecompressionTransform.make,
        RasterReencodingTransform.make,
    ]
}
