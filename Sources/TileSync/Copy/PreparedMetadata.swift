/// What a destination is given before the first tile: its metadata, the tiles' format, warnings
/// about the source's metadata, and the summary read to fill it (nil when the source's own
/// metadata sufficed).
struct PreparedMetadata {
    let metadata: TileMetadata
    let format: SniffedTileFormat
    let warnings: [String]
    let summary: TileSetSummary?

    /// The same without an `agg_tiles_hash`, for a destination that will not hold exactly the
    /// source's tiles and does not compute the hash itself.
    func droppingAggregateHash() -> PreparedMetadata {
        var metadata = metadata
        metadata["agg_tiles_hash"] = nil
        return PreparedMetadata(metadata: metadata, format: format, warnings: warnings, summary: summary)
    }

    /// Source metadata with `minzoom`, `maxzoom`, `bounds` and `format` filled in where missing
    /// or narrowed by the filter. The summary is read when the metadata lacks those keys or a
    /// filter narrows them, and, when the reader says it is cheap, for `wantsTileCount` (the total
    /// of a progress line), since a pass over an index is not free.
    static func prepare(_ reader: any TileReader, metadata sourceMetadata: TileMetadata, filter: TileFilter,
                        sniffed: SniffedTileFormat?, wantsTileCount: Bool = false) throws -> PreparedMetadata {
        let needsSummary = filter != .all || (wantsTileCount && reader.hasCheapSummary)
            || sourceMetadata.minZoom == nil || sourceMetadata.maxZoom == nil || sourceMetadata.bounds == nil
        let tileSummary = needsSummary ? try reader.summary(matching: filter, countingBytes: false) : nil
        var warnings: [String] = []
        let metadata = filledMetadata(sourceMetadata, summary: tileSummary, filter: filter,
                                      sniffed: sniffed, warnings: &warnings, source: reader.location)
        let format = sniffed ?? SniffedTileFormat(sourceMetadata.format ?? .unknown)
        return PreparedMetadata(metadata: metadata, format: format, warnings: warnings, summary: tileSummary)
    }

    /// Every key kept as it is, but `minzoom`, `maxzoom`, `bounds` and `format` filled in or
    /// narrowed, and an `agg_tiles_hash` dropped when the filter leaves tiles out (it would not
    /// match; stores that keep one compute it).
    static func filledMetadata(_ source: TileMetadata, summary: TileSetSummary?, filter: TileFilter,
                               sniffed: SniffedTileFormat?, warnings: inout [String],
                               source location: TileStoreLocation) -> TileMetadata {
        var metadata = source
        for key in ["minzoom", "maxzoom"] where metadata[key] != nil && (key == "minzoom" ? metadata.minZoom : metadata.maxZoom) == nil {
            if let value = key == "minzoom" ? summary?.minZoom : summary?.maxZoom {
                warnings.append("\(location.address): metadata \(key) '\(metadata[key] ?? "")' is not a zoom level 0-30; "
                    + "written as \(value), from the tiles")
            }
        }
        if let text = metadata["bounds"], metadata.bounds == nil, let computed = summary?.bounds {
            warnings.append("\(location.address): metadata bounds '\(text)' is not W,S,E,N in degrees; written as \(computed), from the tiles")
        }
        let filtered = filter != .all
        if filtered { metadata["agg_tiles_hash"] = nil }
        if let summary, let minZoom = summary.minZoom, let maxZoom = summary.maxZoom {
            if metadata.minZoom == nil || filtered { metadata["minzoom"] = String(minZoom) }
            if metadata.maxZoom == nil || filtered { metadata["maxzoom"] = String(maxZoom) }
        }
        if metadata.bounds == nil || filter.isSpatial {
            let fromTiles = summary?.bounds
            if let box = filter.spatialBounds {
                let clipped = (metadata.bounds ?? fromTiles).flatMap { box.intersection($0) } ?? box
                metadata["bounds"] = clipped.description
            } else if let fromTiles {
                metadata["bounds"] = fromTiles.description
            }
        }
        if let sniffed { checkFormat(&metadata, declared: source["format"], sniffed: sniffed, warnings: &warnings, location: location) }
        return metadata
    }

    private static func checkFormat(_ metadata: inout TileMetadata, declared declaredText: String?, sniffed: SniffedTileFormat,
                                    warnings: inout [String], location: TileStoreLocation) {
        let sniffedName = sniffed.format.rawValue
        guard let declaredText else {
            metadata["format"] = sniffedName
            return
        }
        if let declared = TileFormat(declared: declaredText), declared != sniffed.format, sniffed.format == .unknown {
            warnings.append("\(location.address): metadata format is '\(declaredText)' but the first tile is of no known format; "
                + "the metadata was kept" + (declared == .pbf ? " (\(SniffedTileFormat.brotliHint))" : ""))
        } else if let declared = TileFormat(declared: declaredText), declared != sniffed.format {
            warnings.append("\(location.address): metadata format is '\(declaredText)' but the tiles are \(sniffed); "
                + "the metadata was kept, set format=\(sniffedName) in the source to fix it")
        } else if TileFormat(declared: declaredText) == nil {
            warnings.append("\(location.address): metadata format '\(declaredText)' is not a known tile format; the tiles are \(sniffed)")
        }
    }
}
