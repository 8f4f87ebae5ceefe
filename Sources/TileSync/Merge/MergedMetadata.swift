/// The metadata of a merge, by documented rules: `name`, `description` and `center` from the
/// first source; `bounds` the union and `minzoom`/`maxzoom` the widest when every source
/// declares them, else left out so that a conversion computes them from the tiles; distinct
/// `attribution` values joined with " | " in source order; the `json` member's
/// `vector_layers` united by id (`MergedJSONMetadata`); any other key by the duplicate
/// policy (the first source that has it under `ignore` and `abort`, the last under
/// `override`). Sources that declare different tile formats are refused.
enum MergedMetadata {
    static let firstSourceKeys: Set<String> = ["name", "description", "center"]

    /// - Throws: `TileStoreError` `.invalidOptions` when two sources declare different formats.
    /// - Parameter rasterFormatsMayDiffer: raster tiles are re-encoded into one format on the way.
    static func merge(_ all: [TileMetadata], locations: [TileStoreLocation], policy: MergedStoreKind.DuplicatePolicy,
                      rasterFormatsMayDiffer: Bool = false) throws -> TileMetadata {
        try refuseMixedFormats(all, locations: locations, rasterFormatsMayDiffer: rasterFormatsMayDiffer)
        var merged = TileMetadata()
        let ordered = policy == .override ? Array(all.reversed()) : all
        for metadata in ordered {
            for entry in metadata where !merged.contains(entry.key) && !firstSourceKeys.contains(entry.key) {
                if let value = entry.value { merged[entry.key] = value } else { merged.setNull(entry.key) }
            }
        }
        for key in firstSourceKeys.sorted() {
            merged[key] = nil
            if let value = all.first?[key] { merged[key] = value }
        }
        let boxes = all.compactMap { $0["bounds"].flatMap { try? BoundingBox(parsing: $0) } }
        let union = boxes.dropFirst().reduce(boxes.first) { box, next in box.map { $0.union(next) } }
        merged["bounds"] = boxes.count == all.count ? union?.description : nil
        let minimums = all.compactMap(\.minZoom), maximums = all.compactMap(\.maxZoom)
        merged["minzoom"] = minimums.count == all.count ? minimums.min().map(String.init) : nil
        merged["maxzoom"] = maximums.count == all.count ? maximums.max().map(String.init) : nil
        var attributions: [String] = []
        for case let value? in all.map({ $0["attribution"] }) where !attributions.contains(value) { attributions.append(value) }
        if !attributions.isEmpty { merged["attribution"] = attributions.joined(separator: " | ") }
        if let json = MergedJSONMetadata.merge(all.map { $0["json"] }, policy: policy) { merged["json"] = json }
        merged["agg_tiles_hash"] = nil
        return merged
    }

    private static func refuseMixedFormats(_ all: [TileMetadata], locations: [TileStoreLocation], rasterFormatsMayDiffer: Bool) throws {
        var seen: (format: TileFormat, store: String)?
        for (metadata, location) in zip(all, locations) {
            guard let format = metadata["format"].flatMap(TileFormat.init(declared:)) else { continue }
            if let seen, seen.format != format, !(rasterFormatsMayDiffer && MergedEncodings.bothRaster(format, seen.format)) {
                throw TileStoreError(.invalidOptions, store: location.address, item: "metadata format",
                                     message: "is \(format), but \(seen.store) holds \(seen.format): a merge needs one tile format",
                                     hint: MergedEncodings.formatHint(format, seen.format))
            }
            if seen == nil { seen = (format, location.address) }
        }
    }
}
