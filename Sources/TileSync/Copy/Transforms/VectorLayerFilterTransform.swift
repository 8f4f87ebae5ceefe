import Foundation
import Synchronization

/// `--layer`, `--exclude-layer`, `--include-field`, `--exclude-field` (`VectorTile.LayerFilter`):
/// vector tiles keep only the layers and attributes asked for, in their own compression (gzip
/// stays gzip, zlib stays zlib, brotli when the source declares it); a tile the filter leaves
/// whole keeps its bytes; a tile left without a layer is dropped unless `keepsEmptyTiles`.
/// Raster and JSON tiles pass. The metadata's `vector_layers` and `tilestats` (in `json`) keep
/// only what remains; layers the filter names that no tile holds are said at the end.
final class VectorLayerFilterTransform: TileTransform {
    let filter: VectorTile.LayerFilter
    private let declared: TileCompression?
    private let store: String
    private let seenLayers = Mutex<Set<String>>([])

    init(filter: VectorTile.LayerFilter, declared: TileCompression?, store: String) {
        self.filter = filter
        self.declared = declared
        self.store = store
    }

    static func make(_ settings: TileTransformSettings, _ reader: any TileReader) throws -> (any TileTransform)? {
        guard let filter = settings.layerFilter, !filter.keepsEverything || filter.keepsEmptyTiles else { return nil }
        return VectorLayerFilterTransform(filter: filter, declared: try reader.declaredTileCompression(), store: reader.location.address)
    }

    var identity: String { "vector \(filter.description)" }

    func apply(_ tile: Tile, encoders: TileRecompressor.Encoders) throws(TileStoreError) -> TileTransformOutcome {
        let sniffed = SniffedTileFormat(sniffing: tile.data.prefix(16))
        guard sniffed.format == .pbf || (sniffed.format == .unknown && declared == .brotli) else { return .unchanged(nil) }
        let compression: TileCompression = sniffed.format == .unknown ? .brotli : sniffed.compression
        let filtered: (data: Data?, layerNames: [String])
        do {
            let raw = Data(try TileRecompressor.decoded(tile.data, compression))
            filtered = try filter.apply(to: raw)
        } catch let error as CompressionError {
            throw invalid(tile, "cannot be decompressed from \(compression.rawValue) for the layer filter: \(error.description)")
        } catch let error as VectorTile.DecodingError {
            throw invalid(tile, "is not a vector tile the layer filter can read: \(error.description)")
        } catch {
            throw invalid(tile, "cannot be filtered: \(error)")
        }
        let names = filtered.layerNames
        seenLayers.withLock { $0.formUnion(names) }
        guard let data = filtered.data else { return .unchanged(nil) }
        if data.isEmpty, !filter.keepsEmptyTiles { return .dropped(.noLayersLeft) }
        do {
            let encoded = compression == .zlib ? try GzipCodec.compress(data, zlibHeader: true) : try encoders.encode(Array(data), compression)
            return .rewritten(Tile(coordinate: tile.coordinate, data: Data(encoded), modificationTime: tile.modificationTime))
        } catch {
            throw invalid(tile, "cannot be compressed again with \(compression.rawValue): \(error.description)")
        }
    }

    private func invalid(_ tile: Tile, _ message: String) -> TileStoreError {
        TileStoreError(.invalidTile, store: store, item: "tile \(tile.coordinate)", message: message)
    }

    func adjust(_ metadata: inout TileMetadata) {
        guard let text = metadata["json"], let document = try? JSONParser.parse(Array(text.utf8)) else { return }
        metadata["json"] = JSONWriter.text(VectorLayerMetadata.pruned(document, by: filter))
    }

    func notes() -> [String] {
        let seen = seenLayers.withLock { $0 }
        return filter.namedLayers.subtracting(seen).sorted().map { "no tile holds a layer '\($0)' (named by the layer filter)" }
    }
}
