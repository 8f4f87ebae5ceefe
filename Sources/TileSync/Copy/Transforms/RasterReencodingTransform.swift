/// `--tile-format`, `--quality`, `--lossless`, `--background`, `--drop-empty`: raster tiles
/// re-encoded (`RasterReencoder`) on every core, one tile an iteration; a tile whose own bytes
/// are smaller keeps them; fully transparent tiles are dropped when asked. With a target format
/// every tile must be an image, and the metadata's `format` names the target.
struct RasterReencodingTransform: TileTransform {
    let reencoder: RasterReencoder

    static func make(_ settings: TileTransformSettings, _ reader: any TileReader) throws -> (any TileTransform)? {
        guard let encoding = settings.rasterEncoding else { return nil }
        return RasterReencodingTransform(reencoder: try RasterReencoder(encoding: encoding, store: reader.location.address))
    }

    var identity: String { "raster \(reencoder.encoding.settingsDescription)" }
    var isHeavy: Bool { true }

    func apply(_ tile: Tile, encoders: TileRecompressor.Encoders) throws(TileStoreError) -> TileTransformOutcome {
        let format = SniffedTileFormat(sniffing: tile.data.prefix(16)).format
        guard [.png, .jpeg, .webp, .gif].contains(format) || reencoder.encoding.format != nil else { return .unchanged(nil) }
        switch try reencoder.reencode(tile) {
        case .reencoded(let data): return .rewritten(Tile(coordinate: tile.coordinate, data: data, modificationTime: tile.modificationTime))
        case .kept(let smaller): return .unchanged(.rasterKept(smaller: smaller))
        case .dropped: return .dropped(.emptyRaster)
        }
    }

    func adjust(_ metadata: inout TileMetadata) {
        if let format = reencoder.encoding.format { metadata["format"] = format.rawValue }
    }
}
