/// The layout of a folder or tar that names none (no `--source-layout`, no `layout` key in its
/// metadata), chosen from a sample of its file paths.
///
/// Each candidate (`candidates`, with the rows the metadata's `scheme` gives when it has one)
/// reads the sample; the one that reads most of it wins, the first on a tie, so a tree the
/// default reads keeps the default. Paths cannot tell rows from columns, nor XYZ from TMS rows:
/// those are swapped only when the metadata's `bounds` hold every sampled tile one way and none
/// the other. Otherwise the choice stays and `note` says how to force another.
struct TileTreeLayoutDetection: Equatable {
    /// The layout to read with.
    let template: PathTemplate
    /// What was chosen and why, for the user; nil when the metadata declared the layout or the
    /// default was kept with a declared scheme.
    let note: String?
    /// The same in a few words, for `info`'s schema line.
    var brief: String? {
        guard let note else { return nil }
        return note.contains("no metadata says") ? "assumed: nothing names it" : "found from its paths"
    }

    /// Layouts tried, in order of preference.
    static let candidates: [PathTemplate] = [
        "{z}/{x}/{y}.{ext}", "{z}/{x}/{y}", "safe", "tc", "mp", "arcgis", "{q}.{ext}", "{q}",
        "{z}/{x}_{y}.{ext}", "{z}_{x}_{y}.{ext}", "{z}-{x}-{y}.{ext}",
    ].compactMap { try? PathTemplate($0) }

    /// How many file paths a sample holds at most.
    static let sampleSize = 512

    /// Chooses the layout of `store` from its metadata and, when that declares no `layout`, from
    /// `sample` (relative file paths that are not metadata; folders left out), taken only then.
    static func choose(metadata: TileMetadata, sample takeSample: @autoclosure () -> [String], store: String) -> TileTreeLayoutDetection {
        if let declared = metadata["layout"], let template = try? PathTemplate(declared) {
            return TileTreeLayoutDetection(template: template, note: nil)
        }
        let sample = takeSample()
        let scheme = metadata["scheme"]?.lowercased()
        let declaresRows = scheme == "xyz" || scheme == "tms"
        func withDeclaredRows(_ template: PathTemplate) -> PathTemplate {
            switch scheme {
            case "tms": template.withTMSRows()
            case "xyz": template.withXYZRows()
            default: template
            }
        }
        let fallback = TileTreeOptions.layout(declaredBy: metadata)
        var best: (template: PathTemplate, tiles: [TileCoordinate])?
        for candidate in candidates.map(withDeclaredRows) {
            let tiles = sample.compactMap { path -> TileCoordinate? in
                if case .tile(let coordinate, _) = candidate.match(path) { return coordinate }
                return nil
            }
            if tiles.count > best?.tiles.count ?? 0 { best = (candidate, tiles) }
        }
        guard let best else { return TileTreeLayoutDetection(template: fallback, note: nil) }
        var template = best.template
        var reason = "\(best.tiles.count) of \(sample.count) sampled paths fit"
        if let bounds = metadata.bounds, let better = betterByBounds(best.template, tiles: best.tiles, sample: sample,
                                                                     bounds: bounds, mayFlipRows: !declaresRows) {
            template = better
            reason += "; the metadata's bounds hold every sampled tile this way and none as \(best.template.text)"
        }
        let named = template.name.map { " (\($0))" } ?? ""
        if template != fallback {
            return TileTreeLayoutDetection(template: template,
                                           note: "\(store): read with layout \(template.text)\(named), found from its paths (\(reason)); --source-layout chooses another")
        }
        guard !declaresRows, template.hasColumnAndRow else { return TileTreeLayoutDetection(template: template, note: nil) }
        let swapped = template.swappingColumnsAndRows().text
        return TileTreeLayoutDetection(template: template,
                                       note: "\(store): read as \(template.text) (\(reason)), as no metadata says how its paths are laid out; "
                                           + "paths cannot tell it from \(swapped) or TMS rows (--source-layout '\(swapped)', --source-scheme tms)")
    }

    /// The variant of `template` with columns and rows swapped and, when `mayFlipRows`, rows
    /// flipped, that reads `sample` into as many tiles and all inside `bounds`, when none of
    /// `tiles` (what `template` reads) is; nil otherwise.
    private static func betterByBounds(_ template: PathTemplate, tiles: [TileCoordinate], sample: [String],
                                       bounds: BoundingBox, mayFlipRows: Bool) -> PathTemplate? {
        guard template.hasColumnAndRow, !tiles.isEmpty else { return nil }
        var ranges: [Int: [TileRange]] = [:]
        func inside(_ tile: TileCoordinate) -> Bool {
            if ranges[tile.z] == nil { ranges[tile.z] = (try? WebMercator.tileRanges(covering: bounds, zoom: tile.z)) ?? [] }
            return ranges[tile.z, default: []].contains { $0.columns.contains(tile.x) && $0.rows.contains(tile.y) }
        }
        guard !tiles.contains(where: inside) else { return nil }
        let flipped = template.usesTMSRows ? template.withXYZRows() : template.withTMSRows()
        var variants = [template.swappingColumnsAndRows()]
        if mayFlipRows { variants += [flipped, flipped.swappingColumnsAndRows()] }
        for variant in variants where variant != template {
            let read = sample.compactMap { path -> TileCoordinate? in
                if case .tile(let coordinate, _) = variant.match(path) { return coordinate }
                return nil
            }
            if read.count == tiles.count, read.allSatisfy(inside) { return variant }
        }
        return nil
    }
}

extension PathTemplate {
    /// True when the template has a column and a row field (not a quadkey).
    var hasColumnAndRow: Bool { !segments.joined().contains { $0 == .field(.quadkey, .plain) } }
}
