import TileSync

/// `tilesync sync SRC DST` and `tilesync diff A B`.
enum SyncCommand {
    static let sharedOptions: [CommandSpec.Option] = [
        .init(name: "min-zoom", valueName: "z", help: "Limit both stores to zoom levels from z (0-30)."),
        .init(name: "max-zoom", valueName: "z", help: "Limit both stores to zoom levels up to z (0-30)."),
        .init(name: "bbox", valueName: "w,s,e,n", help: "Limit both stores to tiles touching this box (degrees)."),
        .init(name: "checksum", valueName: nil, help: "Compare the MD5 of every tile; ignore modification times\nand the sync state."),
        .init(name: "scheme", valueName: "xyz|tms", help: "Row scheme of a folder or tar destination."),
        .init(name: "layout", valueName: "template", help: "Path template of a folder or tar destination."),
        .init(name: "source-scheme", valueName: "xyz|tms", help: "Row scheme of a folder or tar source."),
        .init(name: "source-layout", valueName: "template", help: "Path template of a folder or tar source."),
    ]

    static let spec = CommandSpec(
        name: "sync",
        abstract: "Make a store hold what another holds, writing only what changed.",
        discussion: """
            Compares the two stores' tile indexes and writes new and changed tiles; unchanged tiles
            are not touched. With --delete, tiles the source lacks are removed. Metadata is synced
            too. A missing destination is created (from a folder into a missing folder in one
            pass, every file keeping its source file's modification time, like rsync -a). Quick
            by default: folders compare size and modification time like rsync, and a sync state
            (.tilesync-state) remembers hashes, so a sync with nothing to do reads almost nothing.
            MBTiles changes commit in one transaction, a folder through a journal that the next
            run completes if interrupted, a tar is rewritten and renamed.
            """,
        arguments: [
            .init(name: "source", help: "The store to copy from."),
            .init(name: "destination", help: "The store to update (created if missing)."),
        ],
        options: [
            .init(name: "delete", valueName: nil, help: "Remove destination tiles the source does not have."),
            .init(name: "dry-run", valueName: nil, help: "Print the plan and change nothing."),
        ] + sharedOptions + [
            .init(name: "mbtiles-schema", valueName: "flat|flat-with-hash|normalized", help: "Schema of an MBTiles destination that is created."),
            .init(name: "skip-invalid", valueName: nil, help: "Skip invalid source tiles with a warning count."),
            .init(name: "quiet", valueName: nil, help: "Print nothing but errors."),
            .init(name: "json", valueName: nil, help: "Print the summary as JSON."),
        ],
        examples: [
            "tilesync sync nightly.mbtiles published.mbtiles --delete",
            "tilesync sync tiles/ mirror/ --dry-run",
            "tilesync sync world.mbtiles tiles/ --max-zoom 10",
        ])

    static let diffSpec = CommandSpec(
        name: "diff",
        abstract: "Show what would make the second store equal to the first.",
        discussion: """
            Lists tiles to add, replace and delete, and counts the unchanged ones, comparing sizes,
            modification times (folders) and MD5s as sync does. Exit status 0 when the stores are
            in sync, 1 when they differ.
            """,
        arguments: [
            .init(name: "source", help: "The store taken as the reference."),
            .init(name: "destination", help: "The store compared with it."),
        ],
        options: sharedOptions + [
            .init(name: "limit", valueName: "n", help: "Print at most n plan lines (default 20; 0 for all)."),
            .init(name: "json", valueName: nil, help: "One JSON object per plan entry, then a summary object."),
        ],
        examples: [
            "tilesync diff world.mbtiles world_modified.mbtiles",
            "tilesync diff tiles/ world.mbtiles --json",
        ])

    static func options(_ arguments: ParsedArguments, spec: CommandSpec) throws -> SyncOptions {
        var options = SyncOptions()
        options.filter = try CommandOptions.filter(arguments, spec: spec)
        options.checksum = arguments.flag("checksum")
        options.destinationLayout = try CommandOptions.layout(arguments, layoutName: "layout", schemeName: "scheme", spec: spec)
        options.sourceLayout = try CommandOptions.layout(arguments, layoutName: "source-layout", schemeName: "source-scheme", spec: spec)
        return options
    }

    static func runSync(_ arguments: ParsedArguments, cancellation: CancellationFlag) throws -> Int32 {
        let source = try TileStoreLocation(parsing: arguments.positionals[0])
        let destination = try TileStoreLocation(parsing: arguments.positionals[1])
        var options = try options(arguments, spec: spec)
        options.delete = arguments.flag("delete")
        options.dryRun = arguments.flag("dry-run")
        options.skipInvalid = arguments.flag("skip-invalid")
        options.isCancelled = { cancellation.isSet }
        if let schema = arguments.value("mbtiles-schema") {
            guard let parsed = MBTilesSchema(rawValue: schema) else {
                throw UsageError("--mbtiles-schema must be flat, flat-with-hash or normalized, not '\(schema)'", spec: spec)
            }
            options.mbtilesSchema = parsed
        }
        let quiet = arguments.flag("quiet"), json = arguments.flag("json")
        var shown = 0
        let summary = try TileSynchronizer.sync(from: source, to: destination, options: options) { entry in
            guard options.dryRun, !quiet, !json else { return }
            if shown < 20 { Terminal.out(line(entry)) }
            shown += 1
        }
        if json {
            Terminal.out(JSONText.render(self.json(summary)))
        } else if !quiet {
            if shown > 20 { Terminal.out("... and \(shown - 20) more") }
            report(summary, dryRun: options.dryRun)
        }
        return 0
    }

    static func runDiff(_ arguments: ParsedArguments) throws -> Int32 {
        let source = try TileStoreLocation(parsing: arguments.positionals[0])
        let destination = try TileStoreLocation(parsing: arguments.positionals[1])
        let options = try options(arguments, spec: diffSpec)
        let json = arguments.flag("json")
        let limit = try arguments.integer("limit", in: 0...Int.max, spec: diffSpec) ?? 20
        var shown = 0
        let summary = try TileSynchronizer.diff(from: source, to: destination, options: options) { entry in
            if json {
                Terminal.out(JSONText.render(.object([
                    ("action", .string(entry.action.rawValue)), ("tile", .string(entry.coordinate.description)),
                    ("z", .int(entry.coordinate.z)), ("x", .int(entry.coordinate.x)), ("y", .int(entry.coordinate.y)),
                    ("size", .int(entry.size)),
                ])))
            } else if limit == 0 || shown < limit {
                Terminal.out(line(entry))
            }
            shown += 1
        }
        if json {
            Terminal.out(JSONText.render(.object([("summary", self.json(summary))])))
        } else {
            if limit > 0, shown > limit { Terminal.out("... and \(shown - limit) more") }
            Terminal.out("add: \(summary.added) tiles (\(Formatting.bytes(summary.bytesToAdd)))")
            Terminal.out("replace: \(summary.replaced) tiles (\(Formatting.bytes(summary.bytesToReplace)))")
            Terminal.out("delete: \(summary.deleted) tiles (\(Formatting.bytes(summary.bytesToDelete)))")
            Terminal.out("unchanged: \(summary.unchanged) tiles")
            Terminal.out("metadata: \(summary.metadataChanged ? "differs" : "same")")
        }
        return summary.isInSync ? 0 : 1
    }

    static func line(_ entry: SyncPlanEntry) -> String {
        "\(entry.action.rawValue) \(entry.coordinate) (\(entry.size) bytes)"
    }

    private static func report(_ summary: SyncSummary, dryRun: Bool) {
        for item in summary.invalidTiles.named { Terminal.err("Warning: skipped invalid \(item.item): \(item.reason)") }
        let counts = "\(summary.added) added, \(summary.replaced) replaced, \(summary.deleted) deleted, \(summary.unchanged) unchanged"
            + (summary.kept > 0 ? ", \(summary.kept) kept (not in the source; --delete removes them)" : "")
        if dryRun {
            Terminal.out("Dry run, nothing changed: would write \(Formatting.bytes(summary.bytesToWrite)); \(counts)"
                + (summary.metadataChanged ? "; metadata differs" : ""))
        } else if summary.isInSync {
            Terminal.out("Nothing to do: \(counts)" + (summary.quickCheckSkippedComparison ? " (neither store changed since the last sync)" : "")
                + " in \(Formatting.seconds(summary.seconds))")
        } else {
            Terminal.out("Synced \(summary.source.path) to \(summary.destination.path)\(summary.created ? " (created)" : ""): \(counts), "
                + "\(Formatting.bytes(summary.bytesToWrite)) written"
                + (summary.metadataChanged ? ", metadata updated" : "") + " in \(Formatting.seconds(summary.seconds))")
        }
    }

    static func json(_ summary: SyncSummary) -> JSONText.Value {
        .object([
            ("source", .string(summary.source.path)), ("destination", .string(summary.destination.path)),
            ("added", .int(summary.added)), ("replaced", .int(summary.replaced)), ("deleted", .int(summary.deleted)),
            ("kept", .int(summary.kept)), ("unchanged", .int(summary.unchanged)),
            ("bytes_written", .int(summary.wroteNothing ? 0 : summary.bytesToWrite)),
            ("bytes_to_write", .int(summary.bytesToWrite)), ("bytes_to_delete", .int(summary.bytesToDelete)),
            ("metadata_changed", .bool(summary.metadataChanged)), ("created", .bool(summary.created)),
            ("wrote_nothing", .bool(summary.wroteNothing)), ("quick_check", .bool(summary.quickCheckSkippedComparison)),
            ("invalid_tiles", .int(summary.invalidTiles.count)), ("seconds", .double(summary.seconds)),
        ])
    }
}
