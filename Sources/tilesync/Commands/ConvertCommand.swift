import Foundation
import TileSync

/// `tilesync convert SRC DST`.
struct ConvertCommand: Command {
    static let force = OptionDefinition.flag("force", help: "Replace the destination if it exists.")
    static let skipInvalid = OptionDefinition.flag("skip-invalid", help: "Skip invalid tiles with a warning count instead of stopping.")

    static let spec = CommandSpec(
        name: "convert",
        abstract: "Copy the tiles of one store into a new store of any kind.",
        discussion: """
            Stores are MBTiles files, z/x/y folders, tar archives (.tar, .tar.gz, .tgz, .tar.zst),
            PMTiles v3 archives (.pmtiles), S3 prefixes (s3://bucket/prefix) and GeoPackage tile
            tables (file.gpkg#table; the table is added beside the file's others). The kind is
            inferred from the name or contents, or forced by a prefix:
            \(StoreKindOptions.kindPrefixes).
            Tile bytes are copied unchanged (unless --compress re-encodes vector tiles, on every
            core, and records compression=... in the metadata and a PMTiles header, or
            --tile-format re-encodes raster tiles and records their format), rows are
            flipped between TMS (MBTiles) and the
            folder's scheme, and metadata is carried across with minzoom, maxzoom, bounds and
            format filled in when missing. The destination appears only when the copy is
            complete; on error or Ctrl-C it is left as it was.
            """,
        arguments: [
            .init(name: "source", help: "The store to read; several are merged, in the order given\n(see --on-duplicate).", isVariadic: true),
            .init(name: "destination", help: "The store to create (refused if it exists, unless --force)."),
        ],
        options: StorePairOptions.definitions(destination: .destination, use: .create)
            + StorePairOptions.mergeDefinitions + TransformOptions.definitions + [force, skipInvalid] + LimitOptions.definitions
            + OutputOptions.definitions,
        examples: [
            "tilesync convert world.mbtiles tiles/",
            "tilesync convert world.mbtiles world.pmtiles --compress brotli",
            "tilesync convert world.mbtiles offline.mbtiles --tile-format webp --lossless --drop-empty",
            "tilesync convert base.mbtiles detail/ merged.pmtiles --on-duplicate override",
            "tilesync convert tiles/ world.tar.gz --max-zoom 8",
            "tilesync convert world.mbtiles world.pmtiles",
            "tilesync convert world.mbtiles s3://my-bucket/world --cache-control 'public, max-age=86400'",
            "tilesync convert world.mbtiles berlin.mbtiles --bbox 13.08,52.33,13.77,52.68",
            "tilesync convert world.mbtiles tms-tiles/ --scheme tms",
            "tilesync convert tiles/ world.mbtiles --mbtiles-schema normalized",
        ])

    static let catchesSignals = true

    let source: TileStoreLocation
    let merge: MergedStoreKind?
    let destination: TileStoreLocation
    var writtenStores: [TileStoreLocation] { [destination] }
    let options: TileConverter.Options
    let output: OutputOptions

    init(parsing arguments: ParsedArguments) throws {
        let stores = try StorePairOptions(arguments, destination: .destination, use: .create, skipsInvalidLines: arguments.flag(Self.skipInvalid))
        source = stores.source
        merge = stores.merge
        destination = stores.destination
        var options = TileConverter.Options()
        try TileCopyOptions(arguments, stores: stores, skipInvalid: Self.skipInvalid).apply(to: &options)
        options.overwrite = arguments.flag(Self.force)
        self.options = options
        output = OutputOptions(arguments)
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        var options = self.options
        options.isCancelled = { cancellation.isSet }
        let progress = ProgressLine(quiet: output.quiet)
        let summary = try SkipInvalidHint.adding {
            let update: ((TileConverter.Progress) -> Void)? = progress.isEnabled ? { progress.update($0) } : nil
            return try TileConverter.convert(from: source, to: destination, options: options, progress: update)
        }
        progress.finish()
        if output.json {
            Terminal.out(JSONWriter.text(Self.json(summary, merge: merge)))
        } else if !output.quiet {
            for note in summary.notes { Terminal.err("Note: \(note)") }
            for warning in summary.warnings { Terminal.err("Warning: \(warning)") }
            Self.report(summary.nonTiles, what: "entries that are not tiles")
            Self.report(summary.invalidTiles, what: "invalid tiles")
            let rate = summary.seconds > 0 ? Int(Double(summary.tilesWritten) / summary.seconds) : 0
            let grids = summary.gridsWritten > 0 ? " and \(summary.gridsWritten) UTFGrids" : ""
            Terminal.out("Converted \(summary.tilesWritten) tiles\(grids) (\(Formatting.bytes(summary.bytesWritten))) "
                + "from \(source.address) to \(destination.address) in \(Formatting.seconds(summary.seconds)) (\(rate) tiles/s)")
            var blobs = "\(summary.distinctBlobs) distinct blobs"
            if summary.destinationDeduplicates {
                blobs += ", \(Formatting.bytes(summary.bytesSaved)) saved by dedup"
            } else if summary.duplicateBytes > 0, destination.kind.capabilities.deduplication != .none {
                blobs += "; --\(TileStoreOptions.Deduplication.name) would save \(Formatting.bytes(summary.duplicateBytes))"
            }
            Terminal.out(blobs)
            if let line = RasterOutput.line(summary.rasterReencoding, options.transforms.rasterEncoding) { Terminal.out(line) }
            if let filter = options.transforms.layerFilter, !filter.keepsEmptyTiles {
                Terminal.out("Layer filter: \(summary.tilesWithoutLayers) tiles left without a layer were not written")
            }
            for line in MergeOutput.lines(merge) { Terminal.out(line) }
        }
        return 0
    }

    private static func report(_ skipped: SkippedItems, what: String) {
        guard skipped.count > 0 else { return }
        Terminal.err("Warning: skipped \(skipped.count) \(what):")
        for item in skipped.named { Terminal.err("  \(item.item): \(item.reason)") }
        if skipped.count > skipped.named.count { Terminal.err("  ... and \(skipped.count - skipped.named.count) more") }
    }

    static func json(_ summary: TileConverter.Summary, merge: MergedStoreKind?) -> JSONValue {
        func items(_ skipped: SkippedItems) -> JSONValue {
            .object([("count", .int(skipped.count)),
                     ("named", .array(skipped.named.map { .object([("item", .string($0.item)), ("reason", .string($0.reason))]) }))])
        }
        var members: [(key: String, value: JSONValue)] = [
            ("source", .string(summary.source.address)),
            ("destination", .string(summary.destination.address)),
            ("tiles", .int(summary.tilesWritten)),
            ("grids", .int(summary.gridsWritten)),
            ("tiles_without_layers", .int(summary.tilesWithoutLayers)),
            ("bytes", .int(summary.bytesWritten)),
            ("distinct_blobs", .int(summary.distinctBlobs)),
            ("duplicate_tiles", .int(summary.duplicateTiles)),
            ("duplicate_bytes", .int(summary.duplicateBytes)),
            ("bytes_saved", .int(summary.bytesSaved)),
            ("format", summary.sniffedFormat.map { .string($0.description) } ?? .null),
            ("seconds", .figure(summary.seconds)),
            ("skipped_invalid", items(summary.invalidTiles)),
            ("skipped_non_tiles", items(summary.nonTiles)),
            ("not_carried", SyncOutput.json(summary.uncarried)),
            ("raster", RasterOutput.json(summary.rasterReencoding)),
            ("warnings", .array(summary.warnings.map { .string($0) })),
            ("notes", .array(summary.notes.map { .string($0) })),
        ]
        if let merged = MergeOutput.json(merge) { members.append(merged) }
        return .object(members)
    }
}
