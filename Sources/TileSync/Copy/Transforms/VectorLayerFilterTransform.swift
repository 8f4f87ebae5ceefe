import Foundation
import Synchronization

extension TileTransformSettings {
    /// Keep only some layers and attributes of vector tiles (`--layer`, `--exclude-layer`,
    /// `--include-field`, `--exclude-field`, `--keep-empty-tiles`); nil keeps them all.
    public var layerFilter: VectorTile.LayerFilter? {
        get { value("layerFilter", as: VectorTile.LayerFilter.self) }
        set { set("layerFilter", newValue) }
    }
}

/// `--layer`, `--exclude-layer`, `--include-field`, `--exclude-field` (`VectorTile.LayerFilter`):
/// vector tiles keep only the layers and attributes asked for, in their own compression (gzip
/// stays gzip, zlib stays zlib, brotli when the source declares it); a tile the filter leaves
/// whole keeps its bytes; a tile left without a layer is dropped unless `keepsEmptyTiles`.
/// Raster and JSON tiles pass. Bytes of no known format are read as a vector tile (one may
/// begin with a field other than a layer); those that do not decode are invalid tiles where
/// the store declares `pbf` and pass elsewhere. The metadata's `vector_layers` and `tilestats` (in `json`) keep
/// only what remains; layers the filter names that no tile holds are said at the end.
final class VectorLayerFilterTransform: TileTransform, TileTransformKind {
    let filter: VectorTile.LayerFilter
    private let declared: TileCompression?
    /// The store declares vector tiles (`format` pbf).
    private let declaresVector: Bool
    private let store: String
    private let matcher: VectorTile.LayerFilter.NameMatcher
    /// The named layers some tile held: the first 64 as bits, the rest in a set.
    private let seenBits = Atomic<UInt64>(0)
    private let seenBeyond = Mutex<Set<Int>>([])

    init(filter: VectorTile.LayerFilter, declared: TileCompression?, declaresVector: Bool, store: String) {
        self.filter = filter
        matcher = VectorTile.LayerFilter.NameMatcher(filter)
        self.declared = declared
        self.declaresVector = declaresVector
        self.store = store
    }

    static let commandLineOptions: [TileTransformSettings.CommandLineOption] = [
        .init(name: "layer", placeholder: "name,...", help: "Keep only these layers of vector tiles (repeatable).", isRepeatable: true),
        .init(name: "exclude-layer", placeholder: "name,...", help: "Drop these layers of vector tiles (repeatable).", isRepeatable: true),
        .init(name: "include-field", placeholder: "[layer:]field,...",
              help: "Keep only these attributes, in one layer or (without layer:, or\nwith *:) in every layer; a layer no kept field names keeps\nall of its own (repeatable).",
              isRepeatable: true),
        .init(name: "exclude-field", placeholder: "[layer:]field,...",
              help: "Drop these attributes, in one layer or in every layer\n(*:name:en is the attribute name:en of every layer).", isRepeatable: true),
        .init(name: "keep-empty-tiles", placeholder: nil,
              help: "Write vector tiles the layer filter leaves without a layer\n(left out by default, and counted)."),
    ]

    static func read(_ given: [String: String], into settings: inout TileTransformSettings) throws(TileTransformSettings.ValueError) {
        guard commandLineOptions.contains(where: { given[$0.name] != nil }) else { return }
        var filter = VectorTile.LayerFilter()
        filter.keptLayers = Set(try list(given, "layer"))
        filter.droppedLayers = Set(try list(given, "exclude-layer"))
        filter.keptFields = try fields(given, "include-field")
        filter.droppedFields = try fields(given, "exclude-field")
        filter.keepsEmptyTiles = given["keep-empty-tiles"] != nil
        if let both = filter.keptLayers.intersection(filter.droppedLayers).sorted().first {
            throw TileTransformSettings.ValueError("layer '\(both)' is both kept (--layer) and dropped (--exclude-layer)")
        }
        settings.layerFilter = filter
    }

    /// The comma lists of an option, every repetition.
    private static func list(_ given: [String: String], _ name: String) throws(TileTransformSettings.ValueError) -> [String] {
        guard let text = given[name] else { return [] }
        let items = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard !items.contains(where: \.isEmpty) else { throw TileTransformSettings.ValueError("--\(name) has an empty name in '\(text)'") }
        return items
    }

    private static func fields(_ given: [String: String], _ name: String) throws(TileTransformSettings.ValueError) -> Set<VectorTile.LayerFilter.Field> {
        var fields: Set<VectorTile.LayerFilter.Field> = []
        for item in try list(given, name) {
            do throws(VectorTile.LayerFilter.ParseError) {
                fields.insert(try VectorTile.LayerFilter.Field(parsing: item))
            } catch {
                throw TileTransformSettings.ValueError("--\(name): \(error)")
            }
        }
        return fields
    }

    static func make(_ settings: TileTransformSettings, _ reader: any TileReader) throws -> (any TileTransform)? {
        guard let filter = settings.layerFilter, !filter.keepsEverything || filter.keepsEmptyTiles else { return nil }
        let metadata = try reader.metadata()
        if metadata.format == .mlt {
            throw TileStoreError(.unsupported, store: reader.location.address,
                                 message: "holds MapLibre Tiles (format \(metadata["format"] ?? "")); the layer filter reads Mapbox Vector Tiles only",
                                 hint: "convert without --layer, --exclude-layer, --include-field and --exclude-field")
        }
        return VectorLayerFilterTransform(filter: filter, declared: try reader.declaredTileCompression(),
                                          declaresVector: metadata.format == .pbf, store: reader.location.address)
    }

    var identity: String { "vector \(filter.description)" }

    func apply(_ tile: Tile, codecs: TileRecompressor.Codecs) throws(TileStoreError) -> TileTransformOutcome {
        let sniffed = SniffedTileFormat(sniffing: tile.data.prefix(16))
        guard let (compression, isGuess) = sniffed.vectorReading(declared: declared) else { return .unchanged(nil) }
        let filtered: Data?
        var seen = VectorTile.LayerFilter.NameMatcher.Seen()
        do {
            filtered = try codecs.withDecoded(tile.data, compression) { raw in
                Result { () throws(VectorTile.DecodingError) in try filter.apply(toBytes: raw, matcher: matcher, seen: &seen) }
            }.get()
        } catch let error as CompressionError {
            throw invalid(tile, "cannot be decompressed from \(compression.rawValue) for the layer filter: \(error.description)")
        } catch let error as VectorTile.DecodingError {
            if isGuess, !declaresVector { return .unchanged(nil) }
            throw invalid(tile, "is not a vector tile the layer filter can read: \(error.description)")
        } catch {
            throw invalid(tile, "cannot be filtered: \(error)")
        }
        if seen.bits & ~seenBits.load(ordering: .relaxed) != 0 { seenBits.bitwiseOr(seen.bits, ordering: .relaxed) }
        if !seen.beyond.isEmpty { seenBeyond.withLock { $0.formUnion(seen.beyond) } }
        guard let data = filtered else { return .unchanged(nil) }
        if data.isEmpty, !filter.keepsEmptyTiles { return .dropped(.noLayersLeft) }
        do {
            let encoded = compression == .zlib ? try GzipCodec.compress(data, zlibHeader: true) : try codecs.encode(Array(data), compression)
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
        let seen = VectorTile.LayerFilter.NameMatcher.Seen(bits: seenBits.load(ordering: .relaxed), beyond: seenBeyond.withLock { $0 })
        return matcher.names.indices.filter { !seen.contains($0) }
            .map { "no tile holds a layer '\(String(decoding: matcher.names[$0], as: UTF8.self))' (named by the layer filter)" }
    }

    /// The named layers the metadata's `vector_layers` does not list; nothing when it has no
    /// such list.
    func notes(fromMetadata metadata: TileMetadata) -> [String] {
        guard let text = metadata["json"], let document = try? JSONParser.parse(Array(text.utf8)),
              let layers = document["vector_layers"]?.array else { return [] }
        let listed = Set(layers.compactMap { $0["id"]?.string.map { Array($0.utf8) } })
        return matcher.names.filter { !listed.contains($0) }
            .map { "the source's vector_layers lists no layer '\(String(decoding: $0, as: UTF8.self))' (named by the layer filter)" }
    }
}
