import TileSync

/// What `tilesync tile --region` prints: the tiles a region covers per zoom and in total, and
/// with a source store how many of them it holds and their bytes (read from its index: a
/// PMTiles archive's directories, an MBTiles count, a folder's file sizes).
struct RegionTileCount {
    let region: TileRegion
    let zooms: ClosedRange<Int>
    let source: TileStoreLocation?

    /// - Throws: `GeographyError` for a bad zoom, `TileStoreError` when the source cannot be read.
    func show(json: Bool) throws {
        let counts = zooms.map { region.tileCount(atZoom: $0) }
        var held: TileSetSummary?
        var asksEachTile = false
        if let source {
            let filter = try TileFilter(minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, region: region)
            let reader = try source.openReader()
            held = try reader.summary(matching: filter)
            asksEachTile = reader.requestsEachTile
        }
        let total = counts.reduce(0, +)
        if json {
            var members: [(String, JSONValue)] = [
                ("region", .string(region.name)), ("bounds", .string(region.bounds.description)), ("tiles", .int(total)),
            ]
            if let buffer = region.buffer { members.append(("buffer_metres", .figure(buffer.metres))) }
            if region.border > 0 { members.append(("border", .int(region.border))) }
            members.append(("zooms", .array(zip(zooms, counts).map { z, count in
                var zoom: [(String, JSONValue)] = [("zoom", .int(z)), ("tiles", .int(count))]
                if let held {
                    let level = held.zooms.first { $0.z == z }
                    zoom += [("source_tiles", .int(level?.tileCount ?? 0)), ("source_bytes", .int(level?.byteCount ?? 0))]
                }
                return .object(zoom)
            })))
            if let held, let source {
                members.append(("source", .object([("store", .string(source.address)), ("tiles", .int(held.tileCount)),
                                                   ("bytes", .int(held.byteCount))])))
            }
            Terminal.out(JSONWriter.text(.object(members)))
            return
        }
        var lines = ["region:   \(region)", "bounds:   \(region.bounds.description)  (west,south,east,north)"]
        for (z, count) in zip(zooms, counts) {
            var line = "  z\(z): \(count) \(count == 1 ? "tile" : "tiles")"
            if let held {
                let level = held.zooms.first { $0.z == z }
                line += asksEachTile ? "; \(level?.tileCount ?? 0) requests to the tile server"
                    : "; the source holds \(level?.tileCount ?? 0), \(Formatting.bytes(level?.byteCount ?? 0))"
            }
            lines.append(line)
        }
        var last = "total:    \(total) \(total == 1 ? "tile" : "tiles")"
        if let held, let source {
            last += asksEachTile ? "; \(held.tileCount) requests to \(source.address) (sizes unknown before asking)"
                : "; \(source.address) holds \(held.tileCount) of them, \(Formatting.bytes(held.byteCount))"
        }
        lines.append(last)
        Terminal.out(lines.joined(separator: "\n"))
    }
}
