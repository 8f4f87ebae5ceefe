/// `--compress`: vector tiles re-encoded into one compression (`TileRecompressor`); raster
/// tiles pass as they are. The metadata's `compression` says the new one (zlib is written as
/// gzip).
struct RecompressionTransform: TileTransform {
    let recompressor: TileRecompressor

    static func make(_ settings: TileTransformSettings, _ reader: any TileReader) throws -> (any TileTransform)? {
        guard let target = settings.compression else { return nil }
        return RecompressionTransform(recompressor: TileRecompressor(target: target, declared: try reader.declaredTileCompression(),
                                                                     store: reader.location.address))
    }

    /// The compression written tiles declare.
    var target: TileCompression { recompressor.target == .zlib ? .gzip : recompressor.target }

    var identity: String { "compress \(recompressor.target.rawValue)" }

    func apply(_ tile: Tile, encoders: TileRecompressor.Encoders) throws(TileStoreError) -> TileTransformOutcome {
        guard let written = try recompressor.recompress(tile, encoders: encoders) else { return .unchanged(.rasterPassed) }
        return written.data == tile.data ? .unchanged(nil) : .rewritten(written)
    }

    func adjust(_ metadata: inout TileMetadata) {
        metadata["compression"] = target.rawValue
    }
}
