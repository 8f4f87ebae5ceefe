import Foundation
import TileSync

/// How `info --stats` prints `TileStatistics`: a table per zoom, the largest tiles, repeated
/// contents and layers; or one JSON object.
enum StatsOutput {
    /// True when the metadata says `pbf`, or (without a format) the first tile is a vector tile.
    static func holdsVectorTiles(_ location: TileStoreLocation) throws -> Bool {
        let reader = try location.openReader()
        if let format = try reader.metadata().format { return format == .pbf }
        guard let first = try reader.tiles(matching: .all).next() else { return false }
        return SniffedTileFormat(sniffing: first.data.prefix(16)).format == .pbf
    }

    static func text(_ statistics: TileStatistics) -> String {
        var lines = ["\(statistics.store.address): \(statistics.total.tiles) tiles, \(Formatting.bytes(statistics.total.bytes))"]
        let header = ["zoom", "tiles", "bytes", "min", "median", "p90", "p99", "max"]
        var rows = [header]
        for sizes in statistics.zooms + [statistics.total] {
            rows.append([sizes.zoom.map(String.init) ?? "all", String(sizes.tiles), String(sizes.bytes), String(sizes.minimum),
                         String(sizes.median), String(sizes.p90), String(sizes.p99), String(sizes.maximum)])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(row.indices.map { String(repeating: " ", count: widths[$0] - row[$0].count) + row[$0] }.joined(separator: "  "))
        }
        if !statistics.largest.isEmpty {
            lines.append("largest: " + statistics.largest.map { "\($0.coordinate) (\($0.size) B)" }.joined(separator: ", "))
        }
        if let repeated = statistics.repeatedTiles {
            let share = statistics.total.tiles > 0 ? Double(repeated) * 100 / Double(statistics.total.tiles) : 0
            lines.append("repeated contents: \(repeated) tiles (\(String(format: "%.1f", share))%) have the bytes of another tile")
        } else {
            lines.append("repeated contents: not known without reading every tile (the store keeps no hashes)")
        }
        for layer in statistics.layers {
            lines.append("layer \(layer.name): \(layer.tiles) tiles, \(layer.features) features, \(Formatting.bytes(layer.bytes)) uncompressed; fields: "
                         + (layer.fields.isEmpty ? "none" : layer.fields.joined(separator: ", ")))
        }
        if statistics.undecodedTiles > 0 { lines.append("\(statistics.undecodedTiles) tiles could not be read as vector tiles (verify --deep names them)") }
        return lines.joined(separator: "\n")
    }

    static func json(_ statistics: TileStatistics) -> JSONValue {
        func sizes(_ sizes: TileStatistics.Sizes) -> JSONValue {
            .object([("zoom", sizes.zoom.map { .int($0) } ?? .null), ("tiles", .int(sizes.tiles)), ("bytes", .int(sizes.bytes)),
                     ("min", .int(sizes.minimum)), ("median", .int(sizes.median)), ("p90", .int(sizes.p90)), ("p99", .int(sizes.p99)),
                     ("max", .int(sizes.maximum))])
        }
        return .object([
            ("store", .string(statistics.store.address)),
            ("zooms", .array(statistics.zooms.map(sizes))), ("total", sizes(statistics.total)),
            ("largest", .array(statistics.largest.map { .object([("tile", .string("\($0.coordinate)")), ("bytes", .int($0.size))]) })),
            ("repeated_tiles", statistics.repeatedTiles.map { .int($0) } ?? .null),
            ("layers", .array(statistics.layers.map { layer in
                .object([("name", .string(layer.name)), ("tiles", .int(layer.tiles)), ("features", .int(layer.features)),
                         ("bytes", .int(layer.bytes)), ("fields", .array(layer.fields.map { .string($0) }))])
            })),
            ("undecoded_tiles", .int(statistics.undecodedTiles)),
        ])
    }
}
