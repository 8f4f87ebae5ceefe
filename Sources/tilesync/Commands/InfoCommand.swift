import Foundation
import TileSync

/// `tilesync info STORE`.
struct InfoCommand: Command {
    static let json = OptionDefinition.flag("json", help: "Print the description as JSON.")
    static let stats = OptionDefinition.flag("stats", help: "Print what the tiles weigh instead: per zoom the count, bytes and\nmin/median/p90/p99/max size, the largest tiles, repeated\ncontents, and for vector tiles per layer tiles, features,\nbytes and fields.")
    static let sizesOnly = OptionDefinition.flag("sizes-only", help: "With --stats: only what the store's listing says, without\nreading tiles (no layers; repeated contents where hashes are kept).")

    static let spec = CommandSpec(
        name: "info",
        abstract: "Describe a tile store: kind, schema, format, tiles per zoom, bounds, sizes, metadata.",
        discussion: """
            The format is shown as declared in the metadata and as the first tile's bytes say.
            The agg hash is martin's agg_tiles_hash computed over the tiles (for any kind of
            store, as if its tiles were in MBTiles), compared with the metadata's value.
            Counts come from the MBTiles index, the PMTiles directories, or a walk of the folder
            or the tar archive's headers, without reading tile data. A PMTiles archive also
            shows its header: clustering, compressions, tile type, counts and sections.
            While it counts, a status line on stderr (when it is a terminal, or with
            TILESYNC_PROGRESS=1) says what it is doing and for how long; Ctrl-C stops it (exit 130).
            --stats measures the tiles instead: sizes from the listing (SQL length(), PMTiles
            directories, file sizes) without reading them; sizes are nearest-rank percentiles.
            For vector tiles it also reads every tile, on every core, for the layers.
            """,
        arguments: [.init(name: "store", help: "An MBTiles file, a folder, a tar or PMTiles archive.")],
        options: [LayoutOptions.Role.store.layout, LayoutOptions.Role.store.scheme, json, stats, sizesOnly]
            + StoreKindOptions.definitions(for: [.read]),
        examples: ["tilesync info world.mbtiles", "tilesync info tiles/ --json", "tilesync info cities.pmtiles --stats"])

    let location: TileStoreLocation
    let printsJSON: Bool
    let measures: Bool
    let sizesOnly: Bool

    init(parsing arguments: ParsedArguments) throws {
        location = try StoreArgument.store(at: 0, of: arguments, use: .read)
        printsJSON = arguments.flag(Self.json)
        measures = arguments.flag(Self.stats)
        sizesOnly = arguments.flag(Self.sizesOnly)
        if sizesOnly, !measures { throw UsageError("--sizes-only goes with --stats", spec: Self.spec) }
    }

    /// What `info` shows, read once.
    struct Description {
        let schema: String
        let metadata: TileMetadata
        let summary: TileSetSummary
        let sniffed: SniffedTileFormat?
        /// nil for a remote store, where computing it would download every tile.
        let aggregate: String?
        let details: [(label: String, value: String)]
        /// UTFGrids read, and those that are not grids.
        let grids: Int
        let invalidGrids: Int

        var averageTileBytes: Int { summary.tileCount > 0 ? summary.byteCount / summary.tileCount : 0 }
        var aggregateNote: String {
            guard aggregate != nil else {
                let reason = summary.isPartial || summary.tileCount > TileAmountLimits.defaultMaxTiles
                    ? "it would read more than \(TileAmountLimits.defaultMaxTiles) tiles" : "it would download every tile"
                return "not computed: \(reason)" + (metadata["agg_tiles_hash"].map { "; metadata says \($0)" } ?? "")
            }
            return metadata["agg_tiles_hash"].map { $0.uppercased() == aggregate ? "matches the metadata" : "metadata says \($0)" }
                ?? "not in the metadata"
        }
    }

    static let catchesSignals = true

    func run(cancellation: CancellationFlag) throws -> Int32 {
        let status = StatusLine(store: location.address, quiet: false)
        defer { status.finish() }
        if measures {
            status.show(sizesOnly ? "measuring" : "measuring and reading the tiles")
            let statistics = try TileStatistics.compute(location, layers: !sizesOnly && (try StatsOutput.holdsVectorTiles(location)),
                                                        isCancelled: { cancellation.isSet })
            status.finish()
            Terminal.out(printsJSON ? JSONWriter.text(StatsOutput.json(statistics)) : StatsOutput.text(statistics))
            return 0
        }
        let contained = location.kind.containedStores(at: location)
        if !contained.isEmpty {
            status.finish()
            Terminal.out(try containedStoresText(contained))
            return 0
        }
        let description = try describe(status: status, cancellation: cancellation)
        status.finish()
        Terminal.out(printsJSON ? JSONWriter.text(json(description)) : text(description))
        return 0
    }

    /// One line per store a container holds (schema, tiles, zooms), or the JSON of them.
    private func containedStoresText(_ addresses: [String]) throws -> String {
        let stores = try addresses.map { address in
            let reader = try TileStoreLocation(parsing: address).openReader()
            return (address: address, schema: reader.schemaDescription, summary: try reader.summary(matching: .all, countingBytes: false))
        }
        if printsJSON {
            return JSONWriter.text(.object([("store", .string(location.address)), ("stores", .array(stores.map { store in
                .object([("store", .string(store.address)), ("schema", .string(store.schema)), ("tiles", .int(store.summary.tileCount)),
                         ("minzoom", store.summary.minZoom.map(JSONValue.int) ?? .null), ("maxzoom", store.summary.maxZoom.map(JSONValue.int) ?? .null)])
            }))]))
        }
        let lines = stores.map { store in
            let zooms = store.summary.minZoom.map { "z\($0)-\(store.summary.maxZoom ?? $0)" } ?? "no tiles"
            return "  \(store.address): \(store.schema), \(store.summary.tileCount) tiles, \(zooms)"
        }
        return (["\(location.address) holds \(stores.count) tile stores; name one to read it:"] + lines).joined(separator: "\n")
    }

    private func describe(status: StatusLine, cancellation: CancellationFlag) throws -> Description {
        status.show("opening")
        let reader = try location.openReader()
        reader.setCancellation { cancellation.isSet }
        var sniffed: SniffedTileFormat?
        status.show("reading the first tile")
        let cursor = try reader.tiles(matching: .all)
        let declaredCompression = try reader.declaredTileCompression(), declaredFormat = try reader.metadata().format
        while true {
            do {
                sniffed = try cursor.next().map {
                    SniffedTileFormat(sniffing: $0.data, declaredCompression: declaredCompression, declaredFormat: declaredFormat)
                }
                break
            } catch let error as TileStoreError where error.kind == .invalidTile {
                continue
            }
        }
        let metadata = try reader.metadata()
        status.show("counting tiles")
        let summary = try reader.summary(matching: .all)
        if cancellation.isSet { throw TileStoreError(.interrupted, store: location.address, message: "interrupted") }
        status.show("counting UTFGrids")
        var grids = (readable: 0, invalid: 0)
        if let cursor = try reader.grids(matching: .all) {
            while true {
                do {
                    guard try cursor.next() != nil else { break }
                    grids.readable += 1
                } catch let error as TileStoreError where error.kind == .invalidTile {
                    grids.invalid += 1
                }
            }
        }
        if cancellation.isSet { throw TileStoreError(.interrupted, store: location.address, message: "interrupted") }
        status.show("computing agg_tiles_hash")
        let tooMany = summary.isPartial || summary.tileCount > TileAmountLimits.defaultMaxTiles
        let aggregate = reader.isRemote || tooMany ? nil : try reader.aggregateHash().hex
        return Description(schema: reader.schemaDescription, metadata: metadata, summary: summary,
                           sniffed: sniffed, aggregate: aggregate, details: reader.storeDetails + patchDetails(metadata),
                           grids: grids.readable, invalidGrids: grids.invalid)
    }

    /// For a patch file (martin's diff format): what it holds and the hashes it checks.
    private func patchDetails(_ metadata: TileMetadata) -> [(label: String, value: String)] {
        let keys = ["agg_tiles_hash_before_apply", "agg_tiles_hash_after_apply", "agg_tiles_hash_in_diff"]
        guard keys.contains(where: metadata.contains), let patch = try? TilePatcher.describe(patch: location.address) else { return [] }
        let hashes = "applies to agg_tiles_hash \(patch.beforeHash?.hex ?? "(not said)"), gives \(patch.afterHash?.hex ?? "(not said)")"
        return [("patch", "\(patch.puts) tiles to put, \(patch.deletions) to delete, \(patch.metadataChanges) metadata "
            + (patch.metadataChanges == 1 ? "change" : "changes") + "; " + hashes + " (tilesync apply)")]
    }

    private func json(_ description: Description) -> JSONValue {
        let summary = description.summary, metadata = description.metadata
        let zooms: [JSONValue] = summary.zooms.map { zoom in
            .object([("zoom", .int(zoom.z)), ("tiles", .int(zoom.tileCount)), ("bytes", .int(zoom.byteCount)),
                     ("columns", .array([.int(zoom.columns.lowerBound), .int(zoom.columns.upperBound)])),
                     ("rows", .array([.int(zoom.rows.lowerBound), .int(zoom.rows.upperBound)]))])
        }
        return .object([
            ("store", .string(location.address)),
            ("kind", .string(location.kind.name)),
            ("schema", .string(description.schema)),
            ("format", .object([("declared", metadata["format"].map { .string($0) } ?? .null),
                                ("sniffed", description.sniffed.map { .string($0.description) } ?? .null)])),
            ("tiles", .int(summary.tileCount)),
            ("tile_count_is_partial", .bool(summary.isPartial)),
            ("bytes", .int(summary.byteCount)),
            ("average_tile_bytes", .int(description.averageTileBytes)),
            ("grids", .int(description.grids)), ("invalid_grids", .int(description.invalidGrids)),
            ("bounds", summary.bounds.map { .string($0.description) } ?? .null),
            ("agg_tiles_hash", .object([("computed", description.aggregate.map { .string($0) } ?? .null),
                                        ("declared", metadata["agg_tiles_hash"].map { .string($0) } ?? .null)])),
            ("zooms", .array(zooms)),
            ("details", .object(description.details.map { ($0.label, .string($0.value)) })),
            ("metadata", .object(metadata.entries.map { ($0.key, $0.value.map { .string($0) } ?? .null) })),
        ])
    }

    private func text(_ description: Description) -> String {
        let summary = description.summary, metadata = description.metadata
        var lines = [
            "store:    \(location.address)",
            "kind:     \(location.kind.displayName)",
            "schema:   \(description.schema)",
            "format:   \(description.sniffed?.description ?? "-") (declared: \(metadata["format"] ?? "none"))",
            "tiles:    \(summary.isPartial ? "at least " : "")\(summary.tileCount)" + (description.grids + description.invalidGrids > 0
                ? ", and \(description.grids) UTFGrids" + (description.invalidGrids > 0 ? " (\(description.invalidGrids) more not readable)" : "")
                : ""),
            "size:     \(summary.byteCount) bytes (\(Formatting.bytes(summary.byteCount))), average \(description.averageTileBytes) bytes",
            "bounds:   \(summary.bounds?.description ?? "-") (of all tiles)",
            "agg hash: \(description.aggregate ?? "-") (\(description.aggregateNote))",
            "zooms:",
        ]
        for zoom in summary.zooms {
            lines.append("  z\(zoom.z): \(zoom.tileCount) tiles, \(zoom.byteCount) bytes, x \(zoom.columns.lowerBound)-\(zoom.columns.upperBound), "
                + "y \(zoom.rows.lowerBound)-\(zoom.rows.upperBound)")
        }
        if !description.details.isEmpty {
            lines.append("\(location.kind.displayName):")
            let width = description.details.map(\.label.count).max() ?? 0
            for detail in description.details {
                lines.append("  \(detail.label):" + String(repeating: " ", count: width - detail.label.count + 1) + detail.value)
            }
        }
        lines.append("metadata:")
        for entry in metadata {
            var value = entry.value ?? "NULL"
            if value.count > 100 { value = String(value.prefix(97)) + "..." }
            lines.append("  \(entry.key): \(value.replacingOccurrences(of: "\n", with: " "))")
        }
        return lines.joined(separator: "\n")
    }
}
