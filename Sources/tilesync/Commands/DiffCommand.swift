import TileSync

/// `tilesync diff A B`.
struct DiffCommand: Command {
    static let limit = OptionDefinition.value("limit", "n", help: "Print at most n plan lines (default 20; 0 for all).")
    static let json = OptionDefinition.flag("json", help: "One JSON object per plan entry, then a summary object.")
    static let patch = OptionDefinition.value("patch", "file",
                                              help: "Write a patch file (martin's diff format) that turns the\nfirst store into the second, instead of listing the plan.")
    static let force = OptionDefinition.flag("force", help: "Replace an existing patch file.")

    static let spec = CommandSpec(
        name: "diff",
        abstract: "Show what would make the second store equal to the first.",
        discussion: """
            Lists tiles to add, replace and delete, and counts the unchanged ones, comparing sizes,
            modification times (folders) and MD5s as sync does. Exit status 0 when the stores are
            in sync, 1 when they differ.
            With --patch FILE: writes FILE, an MBTiles in martin's diff format that turns the
            first store into the second (as `mbtiles diff FIRST SECOND FILE` does): the tiles to
            add or replace with their bytes, a NULL row per tile to delete, the changed metadata
            (NULL for a removed key), and agg_tiles_hash_before_apply / _after_apply, the first
            store's aggregate hash before and after. `tilesync apply FILE STORE` applies it to a
            store of any kind. Tiles are compared by MD5. Exit status 0 when the patch is written.
            """,
        arguments: [
            .init(name: "source", help: "The store taken as the reference; several are merged, in the\norder given (see --on-duplicate).", isVariadic: true),
            .init(name: "destination", help: "The store compared with it."),
        ],
        options: [SyncCommand.checksum] + StorePairOptions.definitions(destination: .existingDestination, use: .read)
            + StorePairOptions.mergeDefinitions + [limit, json, patch, force]
            + [LimitOptions.maxTiles],
        examples: [
            "tilesync diff world.mbtiles world_modified.mbtiles",
            "tilesync diff world.mbtiles world_modified.mbtiles --patch update.mbtiles",
            "tilesync diff tiles/ world.mbtiles --json",
        ])

    let stores: StorePairOptions
    let options: TileSynchronizer.Options
    let limit: Int
    let printsJSON: Bool
    let patchPath: String?
    let overwritesPatch: Bool
    var writtenStores: [TileStoreLocation] { patchPath.map { [PatchFileLocation.at($0)] } ?? [] }

    static let catchesSignals = true

    init(parsing arguments: ParsedArguments) throws {
        stores = try StorePairOptions(arguments, destination: .existingDestination, use: .read)
        var options = TileSynchronizer.Options()
        options.filter = stores.filter
        options.checksum = arguments.flag(SyncCommand.checksum)
        options.limits.maxTiles = try arguments.integer(LimitOptions.maxTiles, in: 1...Int.max) ?? TileAmountLimits.defaultMaxTiles
        self.options = options
        limit = try arguments.integer(Self.limit, in: 0...Int.max) ?? 20
        printsJSON = arguments.flag(Self.json)
        patchPath = arguments.value(Self.patch)
        overwritesPatch = arguments.flag(Self.force)
        if patchPath == nil, overwritesPatch { throw UsageError("--force replaces a patch file: it needs --patch", spec: Self.spec) }
        if patchPath != nil, arguments.value(Self.limit) != nil { throw UsageError("--limit applies to a listed plan, not to --patch", spec: Self.spec) }
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        if let patchPath { return try writePatch(patchPath, cancellation: cancellation) }
        var options = self.options
        options.isCancelled = { cancellation.isSet }
        var shown = 0
        let summary = try TileSynchronizer.diff(from: stores.source, to: stores.destination, options: options) { entry in
            if printsJSON {
                Terminal.out(JSONWriter.text(SyncOutput.json(entry)))
            } else if limit == 0 || shown < limit {
                Terminal.out(SyncOutput.line(entry))
            }
            shown += 1
        }
        if printsJSON {
            Terminal.out(JSONWriter.text(.object([("summary", SyncOutput.json(summary, merge: stores.merge))])))
        } else {
            if limit > 0, shown > limit { Terminal.out("... and \(shown - limit) more") }
            Terminal.out("add: \(summary.added) tiles (\(Formatting.bytes(summary.bytesToAdd)))")
            Terminal.out("replace: \(summary.replaced) tiles (\(Formatting.bytes(summary.bytesToReplace)))")
            Terminal.out("delete: \(summary.deleted) tiles (\(Formatting.bytes(summary.bytesToDelete)))")
            Terminal.out("unchanged: \(summary.unchanged) tiles")
            if summary.involvesGrids { Terminal.out("UTFGrids: \(SyncOutput.gridCounts(summary))") }
            Terminal.out("metadata: \(summary.metadataChanged ? "differs" : "same")")
            for line in MergeOutput.lines(stores.merge) { Terminal.out(line) }
        }
        return summary.isInSync ? 0 : 1
    }

    private func writePatch(_ path: String, cancellation: CancellationFlag) throws -> Int32 {
        var options = TilePatcher.Options()
        options.filter = self.options.filter
        options.overwrite = overwritesPatch
        options.isCancelled = { cancellation.isSet }
        let summary = try TilePatcher.makePatch(from: stores.source, to: stores.destination, writingTo: path, options: options)
        if printsJSON {
            Terminal.out(JSONWriter.text(PatchOutput.json(summary)))
            return 0
        }
        Terminal.out("Wrote patch \(path) (\(Formatting.bytes(summary.patchBytes))): \(summary.added) added, \(summary.replaced) replaced, "
            + "\(summary.deleted) deleted (\(Formatting.bytes(summary.bytesPut)) of tiles), \(summary.metadataChanges) metadata "
            + (summary.metadataChanges == 1 ? "change" : "changes") + " in \(Formatting.seconds(summary.seconds))")
        Terminal.out("Applies to agg_tiles_hash \(summary.beforeHash.hex) (\(summary.base.address)), gives \(summary.afterHash.hex)")
        return 0
    }
}
