import Foundation

import TileSync

/// `tilesync convert SRC DST`.
enum ConvertCommand {
    static let spec = CommandSpec(
        name: "convert",
        abstract: "Copy the tiles of one store into a new store of any kind.",
        discussion: """
            Stores are MBTiles files, z/x/y folders and tar archives (.tar, .tar.gz, .tgz, .tar.zst).
            The kind is inferred from the name or contents; force it with mbtiles:, dir: or tar:.
            Tile bytes are copied unchanged, rows are flipped between TMS (MBTiles) and the
            folder's scheme, and metadata is carried across with minzoom, maxzoom, bounds and
            format filled in when missing. The destination appears only when the copy is
            complete; on error or Ctrl-C it is left as it was.
            """,
        arguments: [
            .init(name: "source", help: "The store to read."),
            .init(name: "destination", help: "The store to create (refused if it exists, unless --force)."),
        ],
        options: [
            .init(name: "min-zoom", valueName: "z", help: "Lowest zoom level to copy (0-30)."),
            .init(name: "max-zoom", valueName: "z", help: "Highest zoom level to copy (0-30)."),
            .init(name: "bbox", valueName: "w,s,e,n", help: "Copy only tiles touching this box (degrees, WGS 84)."),
            .init(name: "scheme", valueName: "xyz|tms", help: "Row scheme of a folder or tar destination (default xyz)."),
            .init(name: "layout", valueName: "template", help: "Path template of a folder or tar destination,\ne.g. {z}/{x}/{y}.{ext} (default), {z}/{y}/{x}.{ext}, {z}/{x:4}/{y:4}.{ext}, {q}.{ext}."),
            .init(name: "source-scheme", valueName: "xyz|tms", help: "Row scheme of a folder or tar source (default: its metadata, else xyz)."),
            .init(name: "source-layout", valueName: "template", help: "Path template of a folder or tar source."),
            .init(name: "mbtiles-schema", valueName: "flat|flat-with-hash|normalized",
                  help: "Table layout of an MBTiles destination (default flat).\nnormalized stores each distinct blob once; flat-with-hash keeps MD5s."),
            .init(name: "dedup", valueName: nil, help: "Store repeated tiles of a folder or tar destination once, as hard links."),
            .init(name: "force", valueName: nil, help: "Replace the destination if it exists."),
            .init(name: "skip-invalid", valueName: nil, help: "Skip invalid tiles with a warning count instead of stopping."),
            .init(name: "quiet", valueName: nil, help: "Print nothing but errors."),
            .init(name: "json", valueName: nil, help: "Print the summary as JSON."),
        ],
        examples: [
            "tilesync convert world.mbtiles tiles/",
            "tilesync convert tiles/ world.tar.gz --max-zoom 8",
            "tilesync convert world.mbtiles berlin.mbtiles --bbox 13.08,52.33,13.77,52.68",
            "tilesync convert world.mbtiles tms-tiles/ --scheme tms",
            "tilesync convert tiles/ world.mbtiles --mbtiles-schema normalized",
        ])

    static func run(_ arguments: ParsedArguments, cancellation: CancellationFlag) throws -> Int32 {
        let source = try TileStoreLocation(parsing: arguments.positionals[0])
        let destination = try TileStoreLocation(parsing: arguments.positionals[1])
        var options = ConversionOptions()
        options.filter = try CommandOptions.filter(arguments, spec: spec)
        options.destinationLayout = try CommandOptions.layout(arguments, layoutName: "layout", schemeName: "scheme", spec: spec) ?? .xyz
        options.sourceLayout = try CommandOptions.layout(arguments, layoutName: "source-layout", schemeName: "source-scheme", spec: spec)
        options.overwrite = arguments.flag("force")
        options.deduplicate = arguments.flag("dedup")
        if let schema = arguments.value("mbtiles-schema") {
            guard let parsed = MBTilesSchema(rawValue: schema) else {
                throw UsageError("--mbtiles-schema must be flat, flat-with-hash or normalized, not '\(schema)'", spec: spec)
            }
            guard destination.kind == .mbtiles else {
                throw UsageError("--mbtiles-schema applies to an MBTiles destination", spec: spec)
            }
            options.mbtilesSchema = parsed
        }
        if options.deduplicate && destination.kind == .mbtiles {
            throw UsageError("--dedup applies to a folder or tar destination; for MBTiles use --mbtiles-schema normalized", spec: spec)
        }
        options.skipInvalid = arguments.flag("skip-invalid")
        options.isCancelled = { cancellation.isSet }
        let quiet = arguments.flag("quiet")
        let progress = ProgressLine(quiet: quiet)
        let summary = try TileConverter.convert(from: source, to: destination, options: options, progress: progress.update)
        progress.finish()
        if arguments.flag("json") {
            Terminal.out(JSONText.render(json(summary)))
        } else if !quiet {
            for warning in summary.warnings { Terminal.err("Warning: \(warning)") }
            report(summary.nonTiles, what: "entries that are not tiles")
            report(summary.invalidTiles, what: "invalid tiles")
            let rate = summary.seconds > 0 ? Int(Double(summary.tilesWritten) / summary.seconds) : 0
            Terminal.out("Converted \(summary.tilesWritten) tiles (\(Formatting.bytes(summary.bytesWritten))) "
                + "from \(source.path) to \(destination.path) in \(Formatting.seconds(summary.seconds)) (\(rate) tiles/s)")
            var blobs = "\(summary.distinctBlobs) distinct blobs"
            if summary.destinationDeduplicates {
                blobs += ", \(Formatting.bytes(summary.bytesSaved)) saved by dedup"
            } else if summary.duplicateBytes > 0 {
                let how = destination.kind == .mbtiles ? "--mbtiles-schema normalized" : "--dedup"
                blobs += "; \(how) would save \(Formatting.bytes(summary.duplicateBytes))"
            }
            Terminal.out(blobs)
        }
        return 0
    }

    private static func report(_ skipped: SkippedItems, what: String) {
        guard skipped.count > 0 else { return }
        Terminal.err("Warning: skipped \(skipped.count) \(what):")
        for item in skipped.named { Terminal.err("  \(item.item): \(item.reason)") }
        if skipped.count > skipped.named.count { Terminal.err("  ... and \(skipped.count - skipped.named.count) more") }
    }

    static func json(_ summary: ConversionSummary) -> JSONText.Value {
        func items(_ skipped: SkippedItems) -> JSONText.Value {
            .object([("count", .int(skipped.count)),
                     ("named", .array(skipped.named.map { .object([("item", .string($0.item)), ("reason", .string($0.reason))]) }))])
        }
        return .object([
            ("source", .string(summary.source.path)),
            ("destination", .string(summary.destination.path)),
            ("tiles", .int(summary.tilesWritten)),
            ("bytes", .int(summary.bytesWritten)),
            ("distinct_blobs", .int(summary.distinctBlobs)),
            ("duplicate_tiles", .int(summary.duplicateTiles)),
            ("duplicate_bytes", .int(summary.duplicateBytes)),
            ("bytes_saved", .int(summary.bytesSaved)),
            ("format", summary.sniffedFormat.map { .string($0.description) } ?? .null),
            ("seconds", .double(summary.seconds)),
            ("skipped_invalid", items(summary.invalidTiles)),
            ("skipped_non_tiles", items(summary.nonTiles)),
            ("warnings", .array(summary.warnings.map { .string($0) })),
        ])
    }
}
