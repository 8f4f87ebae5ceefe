import TileSync

/// What `tilesync tile --region` and `tile --tiles` print: the tiles a region or a tile list
/// covers per zoom and in total, and with a source store how many of them it holds and their
/// bytes (read from its index: a PMTiles archive's directories, an MBTiles count, a folder's file
/// sizes), or for a tile server, which has no index, an estimate from a sample of requests with
/// its 95% margin.
struct SelectionTileCount {
    /// The tiles counted.
    enum Selection {
        case region(TileRegion)
        case list(TileList)
    }

    let selection: Selection
    let zooms: ClosedRange<Int>
    let source: TileStoreLocation?
    /// Requests a tile server source is asked for the estimate.
    let sampleSize: Int

    /// What the source says of the selection: counted from its index, or estimated from a sample.
    private enum Held {
        case counted(TileSetSummary)
        case estimated([TileRegion.SizeEstimate])
    }

    /// - Throws: `GeographyError` for a bad zoom, `TileStoreError` when the source cannot be read.
    func show(json: Bool) throws {
        let counts = zooms.map { z in
            switch selection {
            case .region(let region): region.tileCount(atZoom: z)
            case .list(let list): list.count(atZoom: z)
            }
        }
        var held: Held?
        if let source {
            let reader = try source.openReader()
            switch selection {
            case .region(let region) where reader.requestsEachTile:
                held = .estimated(try region.sizeEstimates(in: reader, zooms: zooms, sampleSize: sampleSize))
            case .list(let list) where reader.requestsEachTile:
                held = .estimated(try list.sizeEstimates(in: reader, zooms: zooms, sampleSize: sampleSize))
            case .region(let region):
                held = .counted(try reader.summary(matching: TileFilter(minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, region: region)))
            case .list(let list):
                held = .counted(try reader.summary(matching: TileFilter(minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, tiles: list)))
            }
        }
        Terminal.out(json ? jsonText(counts: counts, held: held) : lines(counts: counts, held: held).joined(separator: "\n"))
    }

    /// The members that say what was counted.
    private var selectionMembers: [(String, JSONValue)] {
        switch selection {
        case .region(let region):
            var members: [(String, JSONValue)] = [("region", .string(region.name)), ("bounds", .string(region.bounds.description))]
            if let buffer = region.buffer { members.append(("buffer_metres", .figure(buffer.metres))) }
            if region.border > 0 { members.append(("border", .int(region.border))) }
            return members
        case .list(let list):
            return [("tile_list", .string(list.file)), ("listed_lines", .int(list.listedLines)), ("skipped_lines", .int(list.skippedLines))]
        }
    }

    /// The first lines of the human output.
    private var selectionLines: [String] {
        switch selection {
        case .region(let region): ["region:   \(region)", "bounds:   \(region.bounds.description)  (west,south,east,north)"]
        case .list(let list):
            ["tiles:    \(list.file): \(list.listedLines) listed \(list.listedLines == 1 ? "line" : "lines")"
                + (list.skippedLines > 0 ? ", \(list.skippedLines) invalid skipped" : "") + ", \(list.count) distinct \(list.count == 1 ? "tile" : "tiles")"]
        }
    }

    private func jsonText(counts: [Int], held: Held?) -> String {
        var members = selectionMembers + [("tiles", .int(counts.reduce(0, +)))]
        members.append(("zooms", .array(zip(zooms, counts).map { z, count in
            var zoom: [(String, JSONValue)] = [("zoom", .int(z)), ("tiles", .int(count))]
            switch held {
            case .counted(let summary)?:
                let level = summary.zooms.first { $0.z == z }
                zoom += [("source_tiles", .int(level?.tileCount ?? 0)), ("source_bytes", .int(level?.byteCount ?? 0))]
            case .estimated(let estimates)?:
                if let estimate = estimates.first(where: { $0.z == z }) { zoom += Self.members(estimate) }
            case nil: break
            }
            return .object(zoom)
        })))
        if let source {
            var summary: [(String, JSONValue)] = [("store", .string(source.address))]
            switch held {
            case .counted(let counted)?: summary += [("tiles", .int(counted.tileCount)), ("bytes", .int(counted.byteCount))]
            case .estimated(let estimates)?: summary += Self.members(.combined(estimates))
            case nil: break
            }
            members.append(("source", .object(summary)))
        }
        return JSONWriter.text(.object(members))
    }

    private static func members(_ estimate: TileRegion.SizeEstimate) -> [(String, JSONValue)] {
        [("sampled", .int(estimate.sampled)), ("sampled_held", .int(estimate.sampledHeld)),
         ("estimated_tiles", .int(Int(estimate.heldTiles.rounded()))), ("estimated_bytes", .int(Int(estimate.bytes.rounded()))),
         ("estimate_margin_bytes", .int(Int(estimate.margin.rounded())))]
    }

    private func lines(counts: [Int], held: Held?) -> [String] {
        var lines = selectionLines
        for (z, count) in zip(zooms, counts) {
            var line = "  z\(z): \(count) \(count == 1 ? "tile" : "tiles")"
            switch held {
            case .counted(let summary)?:
                let level = summary.zooms.first { $0.z == z }
                line += "; the source holds \(level?.tileCount ?? 0), \(Formatting.bytes(level?.byteCount ?? 0))"
            case .estimated(let estimates)?:
                if let estimate = estimates.first(where: { $0.z == z }) { line += "; " + Self.words(estimate) }
            case nil: break
            }
            lines.append(line)
        }
        let total = counts.reduce(0, +)
        var last = "total:    \(total) \(total == 1 ? "tile" : "tiles")"
        switch (held, source) {
        case (.counted(let summary)?, let source?):
            last += "; \(source.address) holds \(summary.tileCount) of them, \(Formatting.bytes(summary.byteCount))"
        case (.estimated(let estimates)?, let source?):
            let total = TileRegion.SizeEstimate.combined(estimates)
            last += "; " + Self.words(total) + (total.sampled < total.tiles ? " (95%)" : "") + ", asked of \(source.address)"
        default: break
        }
        lines.append(last)
        return lines
    }

    /// "about 1.2 MB ± 80.0 KB held, from 31 of them asked (28 there)", or exact when all were asked.
    private static func words(_ estimate: TileRegion.SizeEstimate) -> String {
        let bytes = Formatting.bytes(Int(estimate.bytes.rounded()))
        guard estimate.sampled < estimate.tiles else {
            return "\(bytes) held, all \(estimate.sampled) asked (\(estimate.sampledHeld) there)"
        }
        return "about \(bytes) ± \(Formatting.bytes(Int(estimate.margin.rounded()))) held, from \(estimate.sampled) of them asked "
            + "(\(estimate.sampledHeld) there)"
    }
}
