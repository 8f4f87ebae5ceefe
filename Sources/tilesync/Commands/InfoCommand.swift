import Foundation
import TileSync

/// `tilesync info STORE`.
struct InfoCommand: Command {
    static let json = OptionDefinition.flag("json", help: "Print the description as JSON.")

    static let spec = CommandSpec(
        name: "info",
        abstract: "Describe a tile store: kind, schema, format, tiles per zoom, bounds, sizes, metadata.",
        discussion: """
            The format is shown as declared in the metadata and as the first tile's bytes say.
            The agg hash is martin's agg_tiles_hash computed over the tiles (for any kind of
            store, as if its tiles were in MBTiles), compared with the metadata's value.
            Counts come from the MBTiles index, or from a walk of the folder or the archive's
            headers, without reading tile data.
            """,
        arguments: [.init(name: "store", help: "An MBTiles file, a folder or a tar archive.")],
        options: [LayoutOptions.Role.store.layout, LayoutOptions.Role.store.scheme, json],
        examples: ["tilesync info world.mbtiles", "tilesync info tiles/ --json"])

    let location: TileStoreLocation
    let printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        let layout = try LayoutOptions(arguments, role: .store)
        var options = TileStoreOptions()
        layout.apply(to: &options)
        location = try StoreArgument.location(arguments.positionals[0], options: options,
                                              flags: { _ in layout.given.joined(separator: " and ") }, spec: Self.spec)
        printsJSON = arguments.flag(Self.json)
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        let reader = try location.openReader()
        let metadata = try reader.metadata()
        let summary = try reader.summary(matching: .all)
        var sniffed: SniffedTileFormat?
        let cursor = try reader.tiles(matching: .all)
        while true {
            do {
                sniffed = try cursor.next().map { SniffedTileFormat(sniffing: $0.data) }
                break
            } catch let error as TileStoreError where error.kind == .invalidTile {
                continue
            }
        }
        let average = summary.tileCount > 0 ? summary.byteCount / summary.tileCount : 0
        let aggregate = try reader.aggregateHash().hex
        let declaredAggregate = metadata["agg_tiles_hash"]
        let aggregateNote = declaredAggregate.map { $0.uppercased() == aggregate ? "matches the metadata" : "metadata says \($0)" }
            ?? "not in the metadata"
        if printsJSON {
            let zooms: [JSONText.Value] = summary.zooms.map { zoom in
                .object([("zoom", .int(zoom.z)), ("tiles", .int(zoom.tileCount)), ("bytes", .int(zoom.byteCount)),
                         ("columns", .array([.int(zoom.columns.lowerBound), .int(zoom.columns.upperBound)])),
                         ("rows", .array([.int(zoom.rows.lowerBound), .int(zoom.rows.upperBound)]))])
            }
            Terminal.out(JSONText.render(.object([
                ("store", .string(location.address)),
                ("kind", .string(location.kind.name)),
                ("schema", .string(reader.schemaDescription)),
                ("format", .object([("declared", metadata["format"].map { .string($0) } ?? .null),
                                    ("sniffed", sniffed.map { .string($0.description) } ?? .null)])),
                ("tiles", .int(summary.tileCount)),
                ("bytes", .int(summary.byteCount)),
                ("average_tile_bytes", .int(average)),
                ("bounds", summary.bounds.map { .string($0.description) } ?? .null),
                ("agg_tiles_hash", .object([("computed", .string(aggregate)),
                                            ("declared", declaredAggregate.map { .string($0) } ?? .null)])),
                ("zooms", .array(zooms)),
                ("metadata", .object(metadata.entries.map { ($0.key, $0.value.map { .string($0) } ?? .null) })),
            ])))
            return 0
        }
        var lines = [
            "store:    \(location.address)",
            "kind:     \(location.kind.displayName)",
            "schema:   \(reader.schemaDescription)",
            "format:   \(sniffed?.description ?? "-") (declared: \(metadata["format"] ?? "none"))",
            "tiles:    \(summary.tileCount)",
            "size:     \(summary.byteCount) bytes (\(Formatting.bytes(summary.byteCount))), average \(average) bytes",
            "bounds:   \(summary.bounds?.description ?? "-") (of all tiles)",
            "agg hash: \(aggregate) (\(aggregateNote))",
            "zooms:",
        ]
        for zoom in summary.zooms {
            lines.append("  z\(zoom.z): \(zoom.tileCount) tiles, \(zoom.byteCount) bytes, x \(zoom.columns.lowerBound)-\(zoom.columns.upperBound), y \(zoom.rows.lowerBound)-\(zoom.rows.upperBound)")
        }
        lines.append("metadata:")
        for entry in metadata {
            var value = entry.value ?? "NULL"
            if value.count > 100 { value = String(value.prefix(97)) + "..." }
            lines.append("  \(entry.key): \(value.replacingOccurrences(of: "\n", with: " "))")
        }
        Terminal.out(lines.joined(separator: "\n"))
        return 0
    }
}
