import TileSync

/// `tilesync sync SRC DST`.
struct SyncCommand: Command {
    static let delete = OptionDefinition.flag("delete", help: "Remove destination tiles the source does not have.")
    static let checksum = OptionDefinition.flag("checksum", help: "Compare the MD5 of every tile; ignore modification times\nand the sync state.")
    static let dryRun = OptionDefinition.flag("dry-run", help: "Print the plan and change nothing.")
    static let skipInvalid = OptionDefinition.flag("skip-invalid", help: "Skip invalid source tiles with a warning count.")
    static let maxDelete = OptionDefinition.value("max-delete", "N",
                                                  help: "Refuse, before any change, a sync that would delete more\nthan N tiles (it says how many it would have).")
    static let writePatch = OptionDefinition.value(
        "write-patch", "file", help: "Also write what the sync changes as a patch in martin's format (a new\nfile; agg_tiles_hash before and after), for copies to apply instead\nof downloading the store; none is written when nothing changed.")
    static let purgeList = OptionDefinition.value(
        "purge-list", "file", help: "Write the public URL of every tile written or deleted (and of\nmetadata.json when the metadata changed) to this file, one a line,\nfor a CDN's purge API; nothing is written when nothing changed.")
    static let publicURL = OptionDefinition.value(
        "public-url", "url", help: "With --purge-list: where the destination is published: a tile URL\ntemplate ({z}, {x}, {y}, {-y}, {q}, {ext}) or a base URL the tile\npaths of the destination's layout are added to.")
    /// Plan lines a dry run prints at most.
    static let shownPlanLines = 20

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
            run completes if interrupted, a tar is rewritten and renamed. An s3:// store is
            compared by its listing (sizes and ETag MD5s; nothing downloaded) and changed object
            by object; an interrupted run is completed by the next.
            With --compress, vector tiles are written re-encoded, and compared as re-encoded by MD5
            (every source tile is read, as with --checksum). --tile-format re-encodes raster tiles
            the same way; a memo beside the sync state remembers what each source tile became,
            so a rerun with the same options re-encodes only tiles that changed.
            """,
        arguments: [
            .init(name: "source", help: "The store to copy from; several are merged, in the order given\n(see --on-duplicate).", isVariadic: true),
            .init(name: "destination", help: "The store to update (created if missing)."),
        ],
        options: [delete, maxDelete, dryRun, checksum, writePatch, purgeList, publicURL] + StorePairOptions.definitions(destination: .existingDestination, use: .update)
            + StorePairOptions.mergeDefinitions + TransformOptions.definitions + [skipInvalid] + LimitOptions.definitions
            + OutputOptions.definitions,
        examples: [
            "tilesync sync nightly.mbtiles published.mbtiles --delete",
            "tilesync sync nightly.mbtiles published.mbtiles --delete --max-delete 1000",
            "tilesync sync tiles/ mirror/ --dry-run",
            "tilesync sync world.mbtiles tiles/ --max-zoom 10",
            "tilesync sync tiles/ s3://my-bucket/world --delete --endpoint http://127.0.0.1:9000",
            "tilesync sync nightly.mbtiles s3://cdn-origin/world --delete --purge-list purge.txt --public-url https://cdn.example.com/world",
            "tilesync sync nightly.mbtiles offline.mbtiles --delete --write-patch 2026-12-05.patch.mbtiles",
        ])

    static let catchesSignals = true

    let stores: StorePairOptions
    var writtenStores: [TileStoreLocation] { [stores.destination] }
    let options: TileSynchronizer.Options
    let output: OutputOptions

    init(parsing arguments: ParsedArguments) throws {
        stores = try StorePairOptions(arguments, destination: .existingDestination, use: .update,
                                      skipsInvalidLines: arguments.flag(Self.skipInvalid))
        var options = TileSynchronizer.Options()
        try TileCopyOptions(arguments, stores: stores, skipInvalid: Self.skipInvalid).apply(to: &options)
        options.checksum = arguments.flag(Self.checksum)
        options.delete = arguments.flag(Self.delete)
        options.dryRun = arguments.flag(Self.dryRun)
        options.maxDelete = try arguments.integer(Self.maxDelete, in: 0...Int.max)
        options.patchPath = arguments.value(Self.writePatch)
        switch (arguments.value(Self.purgeList), arguments.value(Self.publicURL)) {
        case (let path?, let url?): options.purgeList = TileSynchronizer.PurgeList(path: path, publicURL: url)
        case (nil, nil): break
        case (nil, _?): throw UsageError("--public-url needs --purge-list FILE", spec: Self.spec)
        case (_?, nil): throw UsageError("--purge-list needs --public-url URL (where the destination is published)", spec: Self.spec)
        }
        self.options = options
        output = OutputOptions(arguments)
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        var options = self.options
        options.isCancelled = { cancellation.isSet }
        let progress = ProgressLine(quiet: output.quiet || output.json)
        if progress.isEnabled { options.progress = { progress.update($0) } }
        defer { progress.finish() }
        let printsPlan = options.dryRun && !output.quiet && !output.json
        var shown = 0
        let summary = try SkipInvalidHint.adding {
            try TileSynchronizer.sync(from: stores.source, to: stores.destination, options: options) { entry in
                progress.finish()
                guard printsPlan else { return }
                if shown < Self.shownPlanLines { Terminal.out(SyncOutput.line(entry)) }
                shown += 1
            }
        }
        progress.finish()
        if output.json {
            Terminal.out(JSONWriter.text(SyncOutput.json(summary, merge: stores.merge)))
        } else if !output.quiet {
            if shown > Self.shownPlanLines { Terminal.out("... and \(shown - Self.shownPlanLines) more") }
            report(summary)
        }
        return 0
    }

    private func report(_ summary: TileSynchronizer.Summary) {
        for note in summary.notes { Terminal.err("Note: \(note)") }
        for warning in summary.warnings { Terminal.err("Warning: \(warning)") }
        for item in summary.invalidTiles.named { Terminal.err("Warning: skipped invalid \(item.item): \(item.reason)") }
        let counts = "\(summary.added) added, \(summary.replaced) replaced, \(summary.deleted) deleted, \(summary.unchanged) unchanged"
            + (summary.kept > 0 ? ", \(summary.kept) kept (not in the source; --delete removes them)" : "")
            + (summary.involvesGrids ? "; UTFGrids: \(SyncOutput.gridCounts(summary))" : "")
        if options.dryRun {
            Terminal.out("Dry run, nothing changed: would write \(Formatting.bytes(summary.bytesToWrite)); \(counts)"
                + (summary.metadataChanged ? "; metadata differs" : ""))
        } else if summary.isInSync {
            Terminal.out("Nothing to do: \(counts)" + (summary.quickCheckSkippedComparison ? " (neither store changed since the last sync)" : "")
                + " in \(Formatting.seconds(summary.seconds))")
        } else {
            Terminal.out("Synced \(summary.source.address) to \(summary.destination.address)\(summary.created ? " (created)" : ""): \(counts), "
                + "\(Formatting.bytes(summary.bytesToWrite)) written"
                + (summary.metadataChanged ? ", metadata updated" : "") + " in \(Formatting.seconds(summary.seconds))")
        }
        if let path = options.patchPath, !options.dryRun {
            Terminal.out(summary.patch.map { "Patch: \(path), \(Formatting.bytes($0.bytes)), agg_tiles_hash \($0.before.hex) -> \($0.after.hex)" }
                ?? "Patch: nothing changed, \(path) not written")
        }
        if let purge = options.purgeList, !options.dryRun {
            Terminal.out(summary.purgedURLs.map { "Purge list: \($0) URLs in \(purge.path)" } ?? "Purge list: nothing changed, \(purge.path) not written")
        }
        if let line = RasterOutput.line(summary.rasterReencoding, options.transforms.rasterEncoding) { Terminal.out(line) }
        if summary.tilesWithoutLayers > 0 {
            Terminal.out("Layer filter: \(summary.tilesWithoutLayers) tiles left without a layer were not written")
        }
        for line in MergeOutput.lines(stores.merge) { Terminal.out(line) }
    }
}
